import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assistantLocator } from '../../descriptions';
import { assistantId, readWebhookUrl, switchWebhook, webhookUrlField } from './webhooks';

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['enableInboundWebhook'] } },
	[assistantLocator, webhookUrlField],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body = {
		assistant_id: assistantId(this, itemIndex),
		webhook_url: readWebhookUrl(this, itemIndex),
	};
	return await switchWebhook(this, itemIndex, '/api/user/assistants/enable-inbound-webhook', body);
}
