import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { readLimit, returnAllOrLimit } from '../common.descriptions';
import { checkEnum, toDateOnly, toId } from '../validation';

const TYPES = ['api', 'test', 'whatsapp', 'widget'] as const;

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{ displayName: 'Assistant ID', name: 'assistant_id', type: 'number', default: 0, description: 'Only conversations of this assistant (numeric ID)' },
			{ displayName: 'From Date', name: 'date_from', type: 'dateTime', default: '', description: 'Only conversations on or after this day' },
			{ displayName: 'To Date', name: 'date_to', type: 'dateTime', default: '', description: 'Only conversations on or before this day' },
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				default: 'widget',
				description: 'Only conversations of this type',
				options: [
					{ name: 'API', value: 'api' },
					{ name: 'Test', value: 'test' },
					{ name: 'WhatsApp', value: 'whatsapp' },
					{ name: 'Widget', value: 'widget' },
				],
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['conversation'], operation: ['getMany'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	checkEnum(this, itemIndex, 'Type', filters.type, TYPES);
	if (filters.type) qs.type = filters.type;
	if (filters.assistant_id) qs.assistant_id = toId(this, itemIndex, 'Assistant ID', filters.assistant_id);
	const from = toDateOnly(this, itemIndex, 'From Date', filters.date_from);
	const to = toDateOnly(this, itemIndex, 'To Date', filters.date_to);
	if (from) qs.date_from = from;
	if (to) qs.date_to = to;
	return (await apiRequestAllItems.call(this, '/api/user/conversations', qs, readLimit(this, itemIndex), itemIndex)) as IDataObject[];
}
