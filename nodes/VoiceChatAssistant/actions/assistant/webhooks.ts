import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { assistantLocator } from '../../descriptions';
import { checkUrl, readLocatorId } from '../validation';
import type { OperationModule } from '../types';

export function assistantId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, 'assistantId', 'Assistant');
}

/** A POST of `{assistant_id}` (plus `webhook_url` when `withUrl`) to one of the webhook switches. */
export function webhookSwitch(operation: string, path: string, withUrl: boolean): OperationModule {
	const fields: INodeProperties[] = [assistantLocator];
	if (withUrl) {
		fields.push({
			displayName: 'Webhook URL',
			name: 'webhookUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/hooks/inbound',
			description:
				'Address the service notifies. To start an n8n workflow, use the Voice Chat Assistant Trigger instead: it registers itself.',
		});
	}
	return {
		description: updateDisplayOptions(
			{ show: { resource: ['assistant'], operation: [operation] } },
			fields,
		),
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
			const body: IDataObject = { assistant_id: assistantId(this, itemIndex) };
			if (withUrl) {
				const url = String(this.getNodeParameter('webhookUrl', itemIndex, '')).trim();
				checkUrl(this, itemIndex, 'Webhook URL', url);
				body.webhook_url = url;
			}
			const answer = (await apiRequest.call(this, 'POST', path, {
				body,
				itemIndex,
			})) as IDataObject;
			return { success: true, ...body, ...messageOf(answer) };
		},
	};
}
