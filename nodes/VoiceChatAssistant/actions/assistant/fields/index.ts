/**
 * The assistant's optional configuration fields (the API contract's
 * configuration table, see docs/api.md, Assistant), by their API names, written out as the editor shows them. Create
 * and Update place them in one collection each (n8n sorts a collection's
 * options by name); here they are grouped the way a person thinks of them.
 * Ranges live in `typeOptions` and are checked from there (body.ts). One
 * file per group; this one puts them together.
 */

import type { INodeProperties } from 'n8n-workflow';

import { optionsOfValues } from '../../../descriptions/fields';

import { ASSISTANT_TYPES, ONLY_PIPELINE, ONLY_REALTIME } from './constants';
import { voice } from './voice';
import { callFlow } from './callFlow';
import { limits } from './limits';
import { voicemail } from './voicemail';
import { knowledgeAndTools } from './knowledgeAndTools';
import { webhook } from './webhook';
import { chats } from './chats';
import { organisation } from './organisation';
import { postCallAnalysis } from './postCallAnalysis';

export {
	MODES,
	ASSISTANT_TYPES,
	AMBIENT_SOUNDS,
	BUILTIN_TOOL_TYPES,
	KNOWLEDGEBASE_MODES,
	ENDPOINT_TYPES,
	SCHEMA_TYPES,
	FILLER_KINDS,
} from './constants';

/**
 * The groups, in the order a person goes through an assistant's settings, with
 * the prefix that groups them in the editor ("Voice: Speech Speed"): n8n lists
 * a collection's options by name, so fields of one group stand together.
 */
const FIELD_GROUPS: Array<{ prefix: string; fields: INodeProperties[] }> = [
	{ prefix: 'Voice', fields: voice },
	{ prefix: 'Call Flow', fields: callFlow },
	{ prefix: 'Limits', fields: limits },
	{ prefix: 'Voicemail', fields: voicemail },
	{ prefix: 'Knowledge and Tools', fields: knowledgeAndTools },
	{ prefix: 'Webhook', fields: webhook },
	{ prefix: 'Post-Call Analysis', fields: postCallAnalysis },
	{ prefix: 'Chats', fields: chats },
	{ prefix: 'Organization', fields: organisation },
];

const byName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

function grouped(prefix: string, fields: INodeProperties[]): INodeProperties[] {
	// "Voice: Stability", not "Voice: Voice Stability"
	const own = (name: string) =>
		name.startsWith(`${prefix} `) ? name.slice(prefix.length + 1) : name;
	return fields.map((field) => ({ ...field, displayName: `${prefix}: ${own(field.displayName)}` }));
}

/** Every optional configuration field, labelled with its group and sorted by label (so grouped). */
export function configurationFields(): INodeProperties[] {
	return FIELD_GROUPS.flatMap((group) => grouped(group.prefix, group.fields)).sort(byName);
}

/** The fields of Update: the configuration fields and the ones Create asks for as parameters of their own. */
export function updateFields(): INodeProperties[] {
	return [...configurationFields(), ...grouped('Assistant', updateOnlyFields)].sort(byName);
}

/** Fields of the configuration that only Update offers (Create asks for them as required parameters). */
const updateOnlyFields: INodeProperties[] = [
	{
		displayName: 'Initial Message',
		name: 'initial_message',
		type: 'string',
		default: '',
		description: 'At most 200 characters',
	},
	{
		displayName: 'Language ID',
		name: 'language_id',
		type: 'number',
		default: 0,
		description: 'Main language (ID from Assistant → Get Languages)',
	},
	{
		displayName: 'LLM Model ID',
		name: 'llm_model_id',
		type: 'number',
		default: 0,
		description: 'Language model (pipeline mode)',
		displayOptions: ONLY_PIPELINE,
	},
	{
		displayName: 'Multimodal Model ID',
		name: 'multimodal_model_id',
		type: 'number',
		default: 0,
		description: 'Model of the multimodal or dualplex mode',
		displayOptions: ONLY_REALTIME,
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'At most 255 characters',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'outbound',
		options: optionsOfValues(ASSISTANT_TYPES),
	},
	{
		displayName: 'Voice ID',
		name: 'voice_id',
		type: 'number',
		default: 0,
		description: 'Voice (ID from Assistant → Get Voices); must suit the engine mode',
	},
];

/**
 * The label of every API field as the editor shows it, for messages. Fields
 * Create asks for as parameters of their own are named here too.
 */
export const LABELS: Record<string, string> = {
	...Object.fromEntries(
		[...FIELD_GROUPS.flatMap((group) => group.fields), ...updateOnlyFields].map((f) => [
			f.name,
			f.displayName
				.replace(/ (Name or ID|Names or IDs|ID)$/, '')
				.replace(/^Mid Call Tool$/, 'Mid Call Tools'),
		]),
	),
	language_id: 'Language',
	voice_id: 'Voice',
	llm_model_id: 'LLM Model',
	multimodal_model_id: 'Multimodal Model',
	mode: 'Engine Mode',
};

/** Fields that can be cleared on update by sending null. */
export const NULLABLE = [
	'chat_llm_fallback_id',
	'conversation_ended_webhook_url',
	'folder_id',
	'knowledgebase_id',
	'max_initial_silence_duration',
	'min_interrupt_words',
	'phone_number_id',
	'reengagement_prompt',
	'synthesizer_provider_id',
	'transcriber_provider_id',
	'turn_detection_threshold',
	'voice_mail_message',
	'webhook_url',
];

/** Collections that replace the existing one; an explicit choice sends []. */
export const COLLECTIONS = [
	'label_ids',
	'post_call_schema',
	'secondary_language_ids',
	'tool_ids',
	'tools',
];
