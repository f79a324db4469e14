import type { INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

// PLACEHOLDER: replaced by the real trigger.
export class VoiceChatAssistantTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Voice Chat Assistant Trigger',
		name: 'voiceChatAssistantTrigger',
		icon: {
			light: 'file:../../icons/voiceChatAssistant.svg',
			dark: 'file:../../icons/voiceChatAssistant.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		description: 'Starts the workflow when a call of an assistant ends',
		defaults: { name: 'Voice Chat Assistant Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'voiceChatAssistantApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return { workflowData: [this.helpers.returnJsonArray(this.getBodyData())] };
	}
}
