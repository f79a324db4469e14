import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { APP_DESCRIPTION } from '../VoiceChatAssistant/descriptions';
import { whenCredentialChosen } from '../VoiceChatAssistant/methods/credentialGuard';
import { searchAssistants } from '../VoiceChatAssistant/methods/listSearch';
import { rememberDelivered } from './calls/catchUpState';
import { triggerProperties } from './description';
import { FAMILIES, familyOf } from './families';
import { testSigningSecret } from './whatsapp/whatsappSecret';

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
		subtitle:
			'={{$parameter["event"] === "callCompleted" ? "Call completed (post-call webhook)" : $parameter["event"] === "conversationEnded" ? "Chat ended" : $parameter["event"] === "midCallTool" ? "Mid-call tool " + $parameter["toolName"] : $parameter["event"] === "whatsappMessageStatus" ? "WhatsApp message status" : "Inbound call completed"}}',
		// n8n's node panel shows the events of this trigger under the action node's app, with this
		// description as the app's: it is the action node's, so the app reads the same everywhere
		description: APP_DESCRIPTION,
		defaults: { name: 'Voice Chat Assistant Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'voiceChatAssistantApi', required: true },
			{
				// the WhatsApp sender's signing secret (whatsappSecret.ts); the literals are what n8n's lint reads
				name: 'voiceChatAssistantWhatsAppSigningApi',
				required: true,
				displayOptions: { show: { event: ['whatsappMessageStatus'] } },
				testedBy: 'whatsappSigningSecretTest',
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: '={{$parameter["responseMode"]}}',
				// "Immediately" answers with what webhook() gives as its response ({"received": true});
				// the modes that wait answer with the first item of the last node
				responseData: '={{$parameter["responseMode"] === "onReceived" ? "" : "firstEntryJson"}}',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = {
		listSearch: whenCredentialChosen.listSearch({ searchAssistants }),
		credentialTest: { whatsappSigningSecretTest: testSigningSecret },
	};

	webhookMethods = {
		default: {
			/** Whether the service still sends to this trigger (asks it, for the chosen event's family). */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await familyOf(this).checkExists(this);
			},
			/** Registers this trigger at the service, saving what each assistant had before. */
			async create(this: IHookFunctions): Promise<boolean> {
				return await familyOf(this).create(this);
			},
			/** Takes back what any family registered (also after the event was changed). */
			async delete(this: IHookFunctions): Promise<boolean> {
				const current = familyOf(this);
				const staticData = this.getWorkflowStaticData('node');
				let done = true;
				for (const family of FAMILIES) {
					if (family === current || family.registered(staticData))
						done = (await family.remove(this)) && done;
				}
				return done;
			},
		},
	};

	/**
	 * The heartbeat of the chosen event's family (calls/heartbeat.ts): n8n starts it on the
	 * process that runs triggers, at every activation and start; it catches up missed calls and
	 * puts a dropped mid-call tool back, with no post.
	 */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const { heartbeat } = familyOf(this);
		return heartbeat ? await heartbeat(this) : { closeFunction: async () => {} };
	}

	/**
	 * The run of the items webhook() or the heartbeat gave: they pass as they are. n8n runs a
	 * node's execute() before its trigger() in a run, so a test delivery is not taken for a
	 * manual start of the heartbeat.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		// a delivered call whose answer is the workflow's: remembered, saved when the run ends
		rememberDelivered(this, items);
		return [items];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await familyOf(this).webhook(this);
	}
}
