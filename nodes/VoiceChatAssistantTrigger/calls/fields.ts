import type { INodeProperties } from 'n8n-workflow';

import { CALL_STATUS_OPTIONS } from '../../VoiceChatAssistant/descriptions';
import { CALL_AND_CHAT_EVENTS, callEventsWhere } from '../core/events';

/*
 * The call family's fields in the webhook trigger's form, each shown for the family's events only
 * (the form, description.ts, puts them in their places beside the Event picker and the assistant
 * pickers the family shares with the mid-call tool and WhatsApp).
 */

/** The call family's events whose posts are calls (statuses, recordings, the catch-up). */
const CALLS = callEventsWhere((spec) => spec.calls);
/** The call family's events that carry the post-call settings. */
const WITH_POST_CALL_SETTINGS = callEventsWhere((spec) => spec.postCallSettings);

/** Above the Event picker: what one URL per assistant means, and what a test listener does. */
export const callNotices: INodeProperties[] = [
	{
		displayName:
			'The service keeps one webhook URL per assistant. While this workflow is active (or listening for a test event) the assistant sends its calls here; afterwards it gets back the URL it had before, unless that URL no longer answers.',
		name: 'oneUrlPerAssistantNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: CALL_AND_CHAT_EVENTS } },
	},
	{
		displayName:
			'Listening for a test event while this workflow is active takes the calls away from it only for that time: each call the test gets starts the active workflow too, one to three minutes after it ends, with caught_up: true.',
		name: 'testListenerNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: CALLS } },
	},
];

/** After the assistant pickers: an assistant that already has a webhook, and when to answer. */
export const callFields: INodeProperties[] = [
	{
		displayName: 'If the Assistant Already Has a Webhook',
		name: 'existingWebhook',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Take Over and Give Back',
				value: 'takeOverAndGiveBack',
				description:
					'Receive the calls while this workflow is active; on deactivation the assistant gets its previous URL and settings back (another workflow only while it is still active)',
			},
			{
				name: 'Fail Activation',
				value: 'fail',
				description: 'Refuse to activate, naming the host that receives the calls today',
			},
			{
				name: 'Take Over',
				value: 'takeOver',
				description:
					'Replace the previous URL for good; on deactivation the webhook is switched off',
			},
		],
		default: 'takeOverAndGiveBack',
		description:
			'What to do when the assistant already sends its calls to another URL (read from the service before registering)',
		displayOptions: { show: { event: CALL_AND_CHAT_EVENTS } },
	},
	{
		displayName: 'Response Mode',
		name: 'responseMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Immediately',
				value: 'onReceived',
				description:
					'Answer 200 {"received": true} without waiting for the workflow (on n8n 2.x, once n8n has created the run)',
			},
			{
				name: 'When Last Node Finishes',
				value: 'lastNode',
				description:
					'Answer with the first item of the last node; the service stores it as the call\'s "webhook_response"',
			},
			{
				name: "Using 'Respond to Webhook' Node",
				value: 'responseNode',
				description:
					'Answer with what a Respond to Webhook node returns; the service stores it as the call\'s "webhook_response"',
			},
		],
		default: 'onReceived',
		description: 'When and how to answer the service',
		displayOptions: { show: { event: CALL_AND_CHAT_EVENTS } },
	},
];

/** After the other families' fields: the Respond to Webhook notice and the secret check. */
export const callDeliveryFields: INodeProperties[] = [
	{
		displayName:
			'Add a Respond to Webhook node to the workflow. n8n\'s Respond to Webhook node from version 1.1 on refuses to run unless n8n\'s own Webhook, Form, Chat or Wait node comes before it; if it reports "No Webhook node found in the workflow", choose "When Last Node Finishes" instead.',
		name: 'responseNodeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { responseMode: ['responseNode'] } },
	},
	{
		displayName: 'Verify Secret',
		name: 'verifySecret',
		type: 'boolean',
		default: true,
		description:
			"Whether to refuse (HTTP 401) calls of the webhook URL that lack the random secret this node adds to the URL it registers for each assistant. The service signs nothing, so the secret is what tells its calls from anyone else's.",
		displayOptions: { show: { event: CALL_AND_CHAT_EVENTS } },
	},
	{
		displayName:
			'Without the secret check, a call starts this workflow only when the service lists it for a watched assistant (one request per post), but anyone who knows the webhook URL can start it with made-up chat data, and "Download Recording" cannot be used. Turn it off only when something between the service and n8n strips query strings.',
		name: 'verifySecretOffNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { verifySecret: [false] } },
	},
];

/** The call family's entries in the Options collection (shared with WhatsApp). */
export const callOptions: INodeProperties[] = [
	{
		displayName: 'Call Statuses',
		name: 'callStatuses',
		type: 'multiOptions',
		options: CALL_STATUS_OPTIONS,
		default: [],
		description:
			'Start the workflow only for calls with one of these statuses (empty: every status). Other calls are answered 200 and start nothing.',
		displayOptions: { show: { '/event': CALLS } },
	},
	{
		displayName: 'Download Recording',
		name: 'downloadRecording',
		type: 'boolean',
		default: false,
		description:
			'Whether to download the call recording (when the call has one) into the binary property "data" of the item. The recording is read from the service for the call, never from the address in the posted data, and needs "Verify Secret" on. When it cannot be had, the item comes without it and with "recording_error".',
		displayOptions: { show: { '/event': CALLS } },
	},
	{
		displayName: 'Include Recording',
		name: 'includeRecording',
		type: 'boolean',
		default: true,
		description: 'Whether the service puts the recording URL ("recording_url") into the call data',
		displayOptions: { show: { '/event': WITH_POST_CALL_SETTINGS } },
	},
	{
		displayName: 'Only Completed Calls',
		name: 'onlyCompletedCalls',
		type: 'boolean',
		default: true,
		description:
			'Whether the service skips failed and unanswered calls (it sends nothing for them)',
		displayOptions: { show: { '/event': WITH_POST_CALL_SETTINGS } },
	},
	{
		displayName: 'URL Secret Version',
		name: 'urlSecretVersion',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description:
			'Raise it by one to revoke a webhook URL that leaked (the URL carries its secret, so proxy and access logs may hold it): once the workflow is published or turned on again, the assistants get new URLs and calls to the old one are refused (401)',
		displayOptions: { show: { '/event': CALL_AND_CHAT_EVENTS } },
	},
];
