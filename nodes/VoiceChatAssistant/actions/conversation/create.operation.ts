import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { idLocator, keyValueCollection, UUID_PLACEHOLDER } from '../../descriptions';
import { readVariables } from '../parameters';
import { checkEnum, checkUuid } from '../validation';
import { withoutStatus } from './shared';

const properties: INodeProperties[] = [
	idLocator({
		displayName: 'Assistant',
		name: 'assistantUuid',
		searchListMethod: 'searchAssistantUuids',
		description: 'The assistant to chat with. Pick it from the list or give its UUID.',
		placeholder: UUID_PLACEHOLDER,
	}),
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'widget',
		description:
			'Kind of conversation. Widget conversations cost 0.01 USD per user message; test conversations are free.',
		options: [
			{ name: 'Test', value: 'test', description: 'Internal testing, free' },
			{
				name: 'Widget',
				value: 'widget',
				description: 'Like the web chat widget, charged per user message',
			},
		],
	},
	keyValueCollection(
		'Variables',
		'variables',
		'Values the assistant can use in its prompt and initial message as {{variable_name}}',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const assistantId = String(
		this.getNodeParameter('assistantUuid', itemIndex, undefined, { extractValue: true }) ?? '',
	).trim();
	checkUuid(this, itemIndex, 'Assistant', assistantId);
	const type = this.getNodeParameter('type', itemIndex, 'widget') as string;
	checkEnum(this, itemIndex, 'Type', type, ['test', 'widget']);
	const variables = readVariables(
		this,
		itemIndex,
		'Variables',
		this.getNodeParameter('variables', itemIndex, {}),
		undefined,
	);
	const body: IDataObject = { assistant_id: assistantId, type };
	if (Object.keys(variables).length) body.variables = variables;
	return withoutStatus(
		await apiRequest.call(this, 'POST', '/api/conversations', { body, itemIndex }),
	);
}
