import type { INodeProperties } from 'n8n-workflow';

export const postCallAnalysis: INodeProperties[] = [
	{
		displayName: 'Post-Call Evaluation',
		name: 'post_call_evaluation',
		type: 'boolean',
		default: true,
		description: 'Whether calls are evaluated after they end',
	},
	{
		displayName: 'Post-Call Schema',
		name: 'post_call_schema',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Field',
		default: {},
		description: 'Values extracted from each call after it ends',
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						description: '3-16 characters: lowercase letters, digits and underscores',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						default: 'string',
						options: [
							{ name: 'Bool', value: 'bool' },
							{ name: 'Number', value: 'number' },
							{ name: 'String', value: 'string' },
						],
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						description: '3-255 characters: what to extract',
					},
				],
			},
		],
	},
];
