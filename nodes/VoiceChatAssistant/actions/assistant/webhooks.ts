import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { readLocatorId } from '../parameters';
import { checkUrl } from '../validation';

export function assistantId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, 'assistantId', 'Assistant');
}

/** Webhook URL of the switches that turn a webhook on. */
export const webhookUrlField: INodeProperties = {
	displayName: 'Webhook URL',
	name: 'webhookUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. https://example.com/hooks/inbound',
	description:
		'Address the service notifies. To start an n8n workflow, use the Voice Chat Assistant Trigger instead: it registers itself.',
};

/** Webhook URL, checked before anything is sent. */
export function readWebhookUrl(ctx: IExecuteFunctions, itemIndex: number): string {
	const url = String(ctx.getNodeParameter('webhookUrl', itemIndex, '')).trim();
	checkUrl(ctx, itemIndex, 'Webhook URL', url);
	return url;
}

/** A POST of `{assistant_id}` (and `webhook_url` to turn one on) to one of the webhook switches. */
export async function switchWebhook(
	ctx: IExecuteFunctions,
	itemIndex: number,
	path: string,
	body: IDataObject,
): Promise<IDataObject> {
	const response = (await apiRequest.call(ctx, 'POST', path, { body, itemIndex })) as IDataObject;
	return { success: true, ...body, ...messageOf(response) };
}
