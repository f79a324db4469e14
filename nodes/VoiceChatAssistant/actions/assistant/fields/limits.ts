import type { INodeProperties } from 'n8n-workflow';

export const limits: INodeProperties[] = [
	{
		displayName: 'Max Duration',
		name: 'max_duration',
		type: 'number',
		typeOptions: { minValue: 20, maxValue: 1200 },
		default: 600,
		description: '20-1200 seconds, default 600',
	},
	{
		displayName: 'Max Silence Duration',
		name: 'max_silence_duration',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 360 },
		default: 40,
		description: '1-360 seconds, default 40',
	},
	{
		displayName: 'Max Initial Silence Duration',
		name: 'max_initial_silence_duration',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 120 },
		default: 1,
		description: '1-120 seconds',
	},
	{
		displayName: 'Ringing Time',
		name: 'ringing_time',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 60 },
		default: 30,
		description: '1-60 seconds, default 30',
	},
];
