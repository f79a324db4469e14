import type { INodeProperties } from 'n8n-workflow';

export const knowledgeAndTools: INodeProperties[] = [
	{
		displayName: 'Knowledgebase Name or ID',
		name: 'knowledgebase_id',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getKnowledgebases' },
		default: '',
		description:
			'Knowledgebase the assistant uses. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Knowledgebase Mode',
		name: 'knowledgebase_mode',
		type: 'options',
		default: 'function_call',
		description: 'How the knowledgebase is used: Prompt is available in the pipeline mode only',
		options: [
			{ name: 'Function Call', value: 'function_call' },
			{ name: 'Prompt (Pipeline Only)', value: 'prompt' },
		],
	},
	{
		displayName: 'Mid Call Tool Names or IDs',
		name: 'tool_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getTools' },
		default: [],
		description:
			'Mid call tools the assistant may call. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Built-in Tools',
		name: 'tools',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Tool',
		default: {},
		description:
			'Built-in abilities: transfer the call, end it, send keypad tones, book appointments',
		options: [
			{
				displayName: 'Tool',
				name: 'tool',
				values: [
					{
						displayName: 'Availability Timezone',
						name: 'timezone',
						type: 'string',
						default: '',
						description:
							"Time zone of the transfer target's availability, a region/city name such as Europe/Berlin",
						displayOptions: { show: { type: ['call_transfer'] } },
					},
					{
						displayName: 'Calendar API Key',
						name: 'calendar_api_key',
						type: 'string',
						typeOptions: { password: true },
						default: '',
						description: 'API key of the calendar (required)',
						displayOptions: { show: { type: ['calendar_integration'] } },
					},
					{
						displayName: 'Calendar Event Slug',
						name: 'calendar_event_slug',
						type: 'string',
						default: '',
						description: 'Event type to book (required)',
						displayOptions: { show: { type: ['calendar_integration'] } },
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						description: 'When the assistant should use the tool',
					},
					{
						displayName: 'Dynamic Number',
						name: 'custom',
						type: 'boolean',
						default: false,
						description: 'Whether the AI may determine the number itself',
						displayOptions: { show: { type: ['call_transfer'] } },
					},
					{
						displayName: 'Phone Number',
						name: 'phone_number',
						type: 'string',
						default: '',
						description: 'Number to transfer to (required)',
						displayOptions: { show: { type: ['call_transfer'] } },
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						default: 'end_call',
						options: [
							{ name: 'Calendar Integration', value: 'calendar_integration' },
							{ name: 'Call Transfer', value: 'call_transfer' },
							{ name: 'DTMF Input', value: 'dtmf_input' },
							{ name: 'End Call', value: 'end_call' },
						],
					},
				],
			},
		],
	},
];
