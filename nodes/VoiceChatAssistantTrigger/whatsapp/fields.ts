import type { INodeProperties } from 'n8n-workflow';

import { SIGNING_CREDENTIAL_NAME, oldSecretProperties } from './whatsappSecret';
import { WHATSAPP_STATUS } from './whatsappStatus';
import { MAX_AGE_MS } from './whatsappTime';

/*
 * The WhatsApp family's fields in the webhook trigger's form, each shown for its event only (the
 * form, description.ts, puts them in their places).
 */

const show = { show: { event: [WHATSAPP_STATUS] } };

/** The form fields of the event. */
export const whatsappStatusProperties: INodeProperties[] = [
	{
		displayName: `The service sends WhatsApp message statuses to the URL set in the dashboard, per sender (the sender's webhook for read receipts); no request of this node sets it. Paste the Production URL shown above under Webhook URLs there (the Test URL while you listen for a test event), and put the sender's signing secret into a "${SIGNING_CREDENTIAL_NAME}" credential (one per sender) chosen above. Posts without the right signature, or more than ${MAX_AGE_MS / 60_000} minutes old, are refused.`,
		name: 'whatsappStatusNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	...oldSecretProperties,
	{
		displayName: 'Statuses',
		name: 'messageStatuses',
		type: 'multiOptions',
		options: [
			{
				name: 'Delivered',
				value: 'delivered',
				description: "The message reached the recipient's phone",
			},
			{ name: 'Failed', value: 'failed', description: 'The message could not be sent' },
			{ name: 'Read', value: 'read', description: 'The recipient opened the message' },
			{ name: 'Sent', value: 'sent', description: 'WhatsApp accepted the message' },
			{
				name: 'Undelivered',
				value: 'undelivered',
				description: 'The message was sent but never reached the recipient',
			},
		],
		default: [],
		description:
			'Start the workflow only for these statuses (empty: every status). Other posts are answered 200 and start nothing.',
		displayOptions: show,
	},
	{
		displayName: 'Senders',
		name: 'senders',
		type: 'string',
		default: '',
		placeholder: '+4930555000100, 2',
		description:
			'Start the workflow only for messages of these senders: their phone numbers or sender IDs, separated by commas (empty: every sender)',
		displayOptions: show,
	},
	{
		// n8n reads the webhook's response mode from this parameter; the node answers the service itself
		displayName: 'Response Mode',
		name: 'responseMode',
		type: 'hidden',
		default: 'onReceived',
		displayOptions: show,
	},
];

/** The event's entries of the Options collection. */
export const whatsappStatusOptions: INodeProperties[] = [
	{
		displayName: 'Include Dashboard Test Events',
		name: 'includeTestEvents',
		type: 'boolean',
		default: false,
		description:
			'Whether the test events the dashboard sends ("test": true) start the active workflow too. While listening for a test event they always do.',
		displayOptions: { show: { '/event': [WHATSAPP_STATUS] } },
	},
];
