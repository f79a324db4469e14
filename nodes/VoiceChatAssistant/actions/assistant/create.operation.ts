import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems, recordWithMessage } from '../../transport';
import { createOnce } from '../../transport/createOnce';
import { checkEnum, checkRequired } from '../validation';
import { configurationBody } from './body';
import { configurationFields, MODES } from './fields';
import { checkModeRules } from './modeRules';
import { requiredNameField } from '../commonFields';

/**
 * A required pick from the service's lists (language, voice, model) as a
 * searchable list or an ID. The list is asked for when it is opened, with the
 * credential the node has then: a form opened before its credential is set
 * shows no error and still lists everything once it is.
 */
const picker = (
	name: string,
	displayName: string,
	searchListMethod: string,
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties =>
	({
		displayName,
		name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: `${description}. Pick it from the list or give its numeric ID.`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 2',
			},
		],
		...extra,
	}) as INodeProperties;

export const modeField: INodeProperties = {
	displayName: 'Engine Mode',
	name: 'mode',
	type: 'options',
	default: 'pipeline',
	description: 'How the assistant speaks and thinks',
	options: [
		{
			name: 'Dualplex',
			value: 'dualplex',
			description: 'Multimodal brain with a custom text-to-speech voice; needs a multimodal model',
		},
		{
			name: 'Multimodal',
			value: 'multimodal',
			description: 'Real-time multimodal AI; needs a multimodal model',
		},
		{
			name: 'Pipeline',
			value: 'pipeline',
			description: 'Speech-to-text, LLM, text-to-speech; needs an LLM model',
		},
	],
};

const properties: INodeProperties[] = [
	requiredNameField('assistant'),
	modeField,
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'outbound',
		description: 'Whether the assistant answers calls or makes them',
		options: [
			{ name: 'Inbound', value: 'inbound' },
			{ name: 'Outbound', value: 'outbound' },
		],
	},
	picker('languageId', 'Language', 'searchLanguages', 'Main language of the assistant'),
	picker(
		'voiceId',
		'Voice',
		'searchVoices',
		'Voice of the assistant; the list shows voices of the chosen engine mode and language',
		{ typeOptions: { loadOptionsDependsOn: ['mode', 'languageId.value'] } },
	),
	{
		displayName: 'Timezone',
		name: 'timezone',
		type: 'string',
		required: true,
		default: 'Europe/Berlin',
		description: 'Region/city time zone name, e.g. Europe/Berlin',
	},
	{
		displayName: 'Initial Message',
		name: 'initialMessage',
		type: 'string',
		required: true,
		default: '',
		description: 'What the assistant says when the call starts, at most 200 characters',
	},
	{
		displayName: 'System Prompt',
		name: 'systemPrompt',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description: 'Behaviour and personality of the assistant',
	},
	picker('llmModelId', 'LLM Model', 'searchModels', 'Language model of the pipeline mode', {
		typeOptions: { loadOptionsDependsOn: ['mode'] },
		displayOptions: { show: { mode: ['pipeline'] } },
	}),
	picker(
		'multimodalModelId',
		'Multimodal Model',
		'searchModels',
		'Model of the multimodal or dualplex mode',
		{
			typeOptions: { loadOptionsDependsOn: ['mode'] },
			displayOptions: { show: { mode: ['multimodal', 'dualplex'] } },
		},
	),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'Voice, conversation flow, call limits, voicemail, knowledge and tools, webhook, post-call analysis and variables',
		options: configurationFields().filter(
			(f) => f.name !== 'system_prompt' && f.name !== 'timezone',
		),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['create'] } },
	properties,
);

/** The value of a picker: an ID from the list or typed in (a plain value, as older workflows have, too). */
function pick(ctx: IExecuteFunctions, itemIndex: number, name: string) {
	return ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as string | number;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const mode = this.getNodeParameter('mode', itemIndex) as string;
	checkEnum(this, itemIndex, 'Mode', mode, MODES);
	const required: IDataObject = {
		name: this.getNodeParameter('name', itemIndex, ''),
		mode,
		type: this.getNodeParameter('type', itemIndex),
		language_id: pick(this, itemIndex, 'languageId'),
		voice_id: pick(this, itemIndex, 'voiceId'),
		timezone: this.getNodeParameter('timezone', itemIndex, ''),
		initial_message: this.getNodeParameter('initialMessage', itemIndex, ''),
		system_prompt: this.getNodeParameter('systemPrompt', itemIndex, ''),
	};
	if (mode === 'pipeline') required.llm_model_id = pick(this, itemIndex, 'llmModelId');
	else required.multimodal_model_id = pick(this, itemIndex, 'multimodalModelId');
	const labels: IDataObject = {
		name: 'Name',
		language_id: 'Language',
		voice_id: 'Voice',
		timezone: 'Timezone',
		initial_message: 'Initial Message',
		system_prompt: 'System Prompt',
		llm_model_id: 'LLM Model',
		multimodal_model_id: 'Multimodal Model',
	};
	for (const [key, value] of Object.entries(required)) {
		if (labels[key]) checkRequired(this, itemIndex, String(labels[key]), value);
	}
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body = configurationBody(this, itemIndex, { ...required, ...additional });
	checkModeRules(this, itemIndex, body, mode, true);
	return await createOnce(this, itemIndex, {
		path: '/api/user/assistant',
		body,
		noun: 'assistant',
		policy: {
			kind: 'findCreated',
			candidates: async () =>
				(await apiRequestAllItems.call(
					this,
					'/api/user/assistants/get',
					{},
					undefined,
					itemIndex,
				)) as IDataObject[],
			matches: (candidate) => candidate.name === body.name,
		},
		shape: recordWithMessage,
	});
}
