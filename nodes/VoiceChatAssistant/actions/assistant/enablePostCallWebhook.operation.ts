import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { assistantLocator } from '../../descriptions';
import { checkUrl } from '../validation';
import { assistantId } from './webhooks';
import { optionsCollection } from '../commonFields';

const properties: INodeProperties[] = [
	assistantLocator,
	{
		displayName: 'Webhook URL',
		name: 'webhookUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/hooks/call-ended',
		description:
			'Address that receives every ended call of the assistant. To start an n8n workflow, use the Voice Chat Assistant Trigger instead: it registers itself and gives the previous URL back.',
	},
	optionsCollection([
		{
			displayName: 'Include Recording',
			name: 'include_recording_in_webhook',
			type: 'boolean',
			default: true,
			description: 'Whether the recording URL is part of the webhook',
		},
		{
			displayName: 'Only Completed Calls',
			name: 'send_webhook_only_on_completed',
			type: 'boolean',
			default: true,
			description: 'Whether failed and unanswered calls send no webhook',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['enablePostCallWebhook'] } },
	properties,
);

/** The documented route: an assistant update with the switch, the URL and the two settings. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = assistantId(this, itemIndex);
	const url = String(this.getNodeParameter('webhookUrl', itemIndex, '')).trim();
	checkUrl(this, itemIndex, 'Webhook URL', url);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const body: IDataObject = { is_webhook_active: true, webhook_url: url };
	for (const key of ['send_webhook_only_on_completed', 'include_recording_in_webhook']) {
		if (typeof options[key] === 'boolean') body[key] = options[key];
	}
	const answer = (await apiRequest.call(this, 'PUT', `/api/user/assistant/${id}`, {
		body,
		itemIndex,
	})) as IDataObject;
	return { success: true, assistant_id: id, ...body, ...messageOf(answer) };
}
