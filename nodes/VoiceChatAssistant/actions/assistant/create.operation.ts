import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems, recordWithMessage } from '../../transport';
import { createOnce } from '../createOnce';
import { checkEnum, checkRequired } from '../validation';
import { configurationBody } from './body';
import { configurationFields, MODES } from './fields';
import { checkModeRules } from './modeRules';

const picker = (
	name: string,
	displayName: string,
	method: string,
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties =>
	({
		displayName,
		name,
		type: 'options',
		required: true,
		typeOptions: { loadOptionsMethod: method },
		default: '',
		description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
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
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'Name of the assistant, at most 255 characters',
	},
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
	picker('languageId', 'Language Name or ID', 'getLanguages', 'Main language of the assistant'),
	picker(
		'voiceId',
		'Voice Name or ID',
		'getVoices',
		'Voice of the assistant; the list shows voices of the chosen engine mode and language',
		{
			typeOptions: { loadOptionsMethod: 'getVoices', loadOptionsDependsOn: ['mode', 'languageId'] },
		},
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
	picker('llmModelId', 'LLM Model Name or ID', 'getModels', 'Language model of the pipeline mode', {
		typeOptions: { loadOptionsMethod: 'getModels', loadOptionsDependsOn: ['mode'] },
		displayOptions: { show: { mode: ['pipeline'] } },
	}),
	picker(
		'multimodalModelId',
		'Multimodal Model Name or ID',
		'getModels',
		'Model of the multimodal or dualplex mode',
		{
			typeOptions: { loadOptionsMethod: 'getModels', loadOptionsDependsOn: ['mode'] },
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

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const mode = this.getNodeParameter('mode', itemIndex) as string;
	checkEnum(this, itemIndex, 'Mode', mode, MODES);
	const required: IDataObject = {
		name: this.getNodeParameter('name', itemIndex, ''),
		mode,
		type: this.getNodeParameter('type', itemIndex),
		language_id: this.getNodeParameter('languageId', itemIndex, ''),
		voice_id: this.getNodeParameter('voiceId', itemIndex, ''),
		timezone: this.getNodeParameter('timezone', itemIndex, ''),
		initial_message: this.getNodeParameter('initialMessage', itemIndex, ''),
		system_prompt: this.getNodeParameter('systemPrompt', itemIndex, ''),
	};
	if (mode === 'pipeline')
		required.llm_model_id = this.getNodeParameter('llmModelId', itemIndex, '');
	else required.multimodal_model_id = this.getNodeParameter('multimodalModelId', itemIndex, '');
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
		candidates: async () =>
			(await apiRequestAllItems.call(
				this,
				'/api/user/assistants/get',
				{},
				undefined,
				itemIndex,
			)) as IDataObject[],
		matches: (candidate) => candidate.name === body.name,
		shape: recordWithMessage,
	});
}
