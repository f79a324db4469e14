import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { allProperties } from './actions/resources';
import { APP_DESCRIPTION } from './descriptions';
import { router } from './actions/router';
import { whenCredentialChosen } from './methods/credentialGuard';
import * as listSearch from './methods/listSearch';
import * as loadOptions from './methods/loadOptions';
import * as messaging from './methods/messaging';
import * as organisation from './methods/organisation';
import * as telephony from './methods/telephony';

export class VoiceChatAssistant implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Voice Chat Assistant',
		name: 'voiceChatAssistant',
		icon: {
			light: 'file:../../icons/voiceChatAssistant.svg',
			dark: 'file:../../icons/voiceChatAssistant.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: APP_DESCRIPTION,
		defaults: {
			name: 'Voice Chat Assistant',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'voiceChatAssistantApi',
				required: true,
			},
		],
		properties: allProperties,
	};

	methods = {
		listSearch: whenCredentialChosen.listSearch({
			...listSearch,
			...messaging.listSearch,
			...organisation.listSearch,
			...telephony.listSearch,
		}),
		loadOptions: whenCredentialChosen.loadOptions({
			...loadOptions,
			...messaging.loadOptions,
			...organisation.loadOptions,
			...telephony.loadOptions,
		}),
		resourceMapping: whenCredentialChosen.resourceMapping(messaging.resourceMapping),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
