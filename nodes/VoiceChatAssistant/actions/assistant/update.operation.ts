import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { assistantLocator } from '../common.descriptions';
import { refuse } from '../validation';
import { modeField } from './create.operation';
import { checkModeRules, COLLECTIONS, configurationBody, configurationFields, NULLABLE } from './shared';
import { assistantId } from './webhooks';

const title = (s: string) => s.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

const properties: INodeProperties[] = [
	assistantLocator,
	{
		...modeField,
		default: 'keep',
		description: 'The engine mode the update is for. Keep Current sends no mode.',
		options: [{ name: 'Keep Current', value: 'keep', description: 'Do not change the engine mode' }, ...(modeField.options ?? [])],
	},
	{
		displayName: 'Changing the engine mode resets mode-specific settings (LLM model, multimodal model, providers) to the defaults of the new mode',
		name: 'modeChangeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { mode: ['pipeline', 'multimodal', 'dualplex'] } },
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only these fields change. Secondary Languages, Mid Call Tools, Built-in Tools and Post-Call Schema replace the existing lists; Variables replace all variables.',
		options: ([
			...configurationFields(),
			{ displayName: 'Initial Message', name: 'initial_message', type: 'string', default: '', description: 'At most 200 characters' },
			{ displayName: 'Language ID', name: 'language_id', type: 'number', default: 0, description: 'Main language (ID from Assistant → Get Languages)' },
			{ displayName: 'LLM Model ID', name: 'llm_model_id', type: 'number', default: 0, description: 'Language model (pipeline mode)', displayOptions: { show: { '/mode': ['pipeline', 'keep'] } } },
			{ displayName: 'Multimodal Model ID', name: 'multimodal_model_id', type: 'number', default: 0, description: 'Model of the multimodal or dualplex mode', displayOptions: { show: { '/mode': ['multimodal', 'dualplex', 'keep'] } } },
			{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'At most 255 characters' },
			{ displayName: 'Type', name: 'type', type: 'options', default: 'outbound', options: [{ name: 'Inbound', value: 'inbound' }, { name: 'Outbound', value: 'outbound' }] },
			{ displayName: 'Voice ID', name: 'voice_id', type: 'number', default: 0, description: 'Voice (ID from Assistant → Get Voices); must suit the engine mode' },
		] as INodeProperties[]).sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
	{
		displayName: 'Clear Fields',
		name: 'clearFields',
		type: 'multiOptions',
		default: [],
		description: 'Fields to clear (sent as null): the service then removes the setting or restores its default',
		options: NULLABLE.map((value) => ({ name: title(value).replace(' Id', ''), value })),
	},
	{
		displayName: 'Empty Lists',
		name: 'emptyCollections',
		type: 'multiOptions',
		default: [],
		description: 'Lists to empty (sent as [])',
		options: COLLECTIONS.map((value) => ({ name: title(value).replace(' Ids', 's'), value })),
	},
];

export const description = updateDisplayOptions({ show: { resource: ['assistant'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = assistantId(this, itemIndex);
	const mode = this.getNodeParameter('mode', itemIndex, 'keep') as string;
	const fields = { ...(this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject) };
	for (const key of ['language_id', 'voice_id', 'llm_model_id', 'multimodal_model_id']) if (fields[key] === 0) delete fields[key];
	if (mode !== 'keep') fields.mode = mode;
	const body = configurationBody(this, itemIndex, fields);
	for (const key of this.getNodeParameter('clearFields', itemIndex, []) as string[]) {
		if (body[key] !== undefined) refuse(this, itemIndex, `${title(key)} is both set and cleared: choose one`);
		body[key] = null;
	}
	for (const key of this.getNodeParameter('emptyCollections', itemIndex, []) as string[]) {
		if (body[key] !== undefined) refuse(this, itemIndex, `${title(key)} is both set and emptied: choose one`);
		body[key] = [];
	}
	if (!Object.keys(body).length) refuse(this, itemIndex, 'Nothing to update: add Update Fields, Clear Fields or Empty Lists, or choose an engine mode');
	checkModeRules(this, itemIndex, body, mode === 'keep' ? undefined : mode, false);
	const answer = (await apiRequest.call(this, 'PUT', `/api/user/assistant/${id}`, { body, itemIndex })) as IDataObject;
	return { ...((answer?.data as IDataObject) ?? answer), ...(answer?.message ? { message: answer.message } : {}) };
}
