import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, recordWithMessage } from '../../transport';
import { assistantLocator } from '../../descriptions';
import { updateFieldsCollection } from '../commonFields';
import { refuse } from '../validation';
import { modeField } from './create.operation';
import { configurationBody, labelOf } from './body';
import { COLLECTIONS, NULLABLE, updateFields } from './fields';
import { checkModeRules } from './modeRules';
import { assistantId } from './webhooks';

const properties: INodeProperties[] = [
	assistantLocator,
	{
		...modeField,
		default: 'keep',
		description: 'The engine mode the update is for. Keep Current sends no mode.',
		options: [
			{ name: 'Keep Current', value: 'keep', description: 'Do not change the engine mode' },
			...(modeField.options ?? []),
		],
	},
	{
		displayName:
			'Changing the engine mode resets mode-specific settings (LLM model, multimodal model, providers) to the defaults of the new mode',
		name: 'modeChangeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { mode: ['pipeline', 'multimodal', 'dualplex'] } },
	},
	updateFieldsCollection(
		updateFields(),
		'Only these fields change. Secondary Languages, Mid Call Tools, Built-in Tools and Post-Call Schema replace the existing lists; Variables replace all variables.',
	),
	{
		displayName: 'Clear Fields',
		name: 'clearFields',
		type: 'multiOptions',
		default: [],
		description:
			'Fields to clear (sent as null): the service then removes the setting or restores its default',
		options: NULLABLE.map((value) => ({ name: labelOf(value), value })),
	},
	{
		displayName: 'Empty Lists',
		name: 'emptyCollections',
		type: 'multiOptions',
		default: [],
		description: 'Lists to empty (sent as [])',
		options: COLLECTIONS.map((value) => ({ name: labelOf(value), value })),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = assistantId(this, itemIndex);
	const mode = this.getNodeParameter('mode', itemIndex, 'keep') as string;
	const fields = { ...(this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject) };
	for (const key of ['language_id', 'voice_id', 'llm_model_id', 'multimodal_model_id'])
		if (fields[key] === 0) delete fields[key];
	if (mode !== 'keep') fields.mode = mode;
	const body = configurationBody(this, itemIndex, fields);
	for (const key of this.getNodeParameter('clearFields', itemIndex, []) as string[]) {
		if (body[key] !== undefined)
			refuse(this, itemIndex, `${labelOf(key)} is both set and cleared: choose one`);
		body[key] = null;
	}
	for (const key of this.getNodeParameter('emptyCollections', itemIndex, []) as string[]) {
		if (body[key] !== undefined)
			refuse(this, itemIndex, `${labelOf(key)} is both set and emptied: choose one`);
		body[key] = [];
	}
	if (!Object.keys(body).length)
		refuse(
			this,
			itemIndex,
			'Nothing to update: add Update Fields, Clear Fields or Empty Lists, or choose an engine mode',
		);
	checkModeRules(this, itemIndex, body, mode === 'keep' ? undefined : mode, false);
	const answer = (await apiRequest.call(this, 'PUT', `/api/user/assistant/${id}`, {
		body,
		itemIndex,
	})) as IDataObject;
	return recordWithMessage(answer);
}
