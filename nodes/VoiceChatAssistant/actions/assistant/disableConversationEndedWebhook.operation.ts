import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assistantLocator } from '../../descriptions';
import { assistantId, switchWebhook } from './webhooks';

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['disableConversationEndedWebhook'] } },
	[assistantLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body = { assistant_id: assistantId(this, itemIndex) };
	return await switchWebhook(
		this,
		itemIndex,
		'/api/user/assistants/disable-conversation-ended-webhook',
		body,
	);
}
