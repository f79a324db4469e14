import type { INodePropertyOptions } from 'n8n-workflow';

/** The call statuses of the service, as the editor lists them (call filters, the trigger's status filter). */
export const CALL_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Busy', value: 'busy' },
	{ name: 'Completed', value: 'completed' },
	{ name: 'Ended', value: 'ended' },
	{ name: 'Ended by Assistant', value: 'ended_by_assistant' },
	{ name: 'Ended by Customer', value: 'ended_by_customer' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'In Progress', value: 'in-progress' },
	{ name: 'Initiated', value: 'initiated' },
	{ name: 'No Answer', value: 'no-answer' },
	{ name: 'Ringing', value: 'ringing' },
];

/** The values alone, for checks before sending. */
export const CALL_STATUSES: string[] = CALL_STATUS_OPTIONS.map((option) => String(option.value));

/** Statuses of a call that has ended (it changes no more); the others are on their way. */
export const FINAL_CALL_STATUSES: string[] = [
	'busy',
	'completed',
	'ended',
	'ended_by_assistant',
	'ended_by_customer',
	'failed',
	'no-answer',
];

/** The options of the final statuses (the polling trigger's Call Ended filter). */
export const FINAL_CALL_STATUS_OPTIONS: INodePropertyOptions[] = CALL_STATUS_OPTIONS.filter(
	(option) => FINAL_CALL_STATUSES.includes(String(option.value)),
);
