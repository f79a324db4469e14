import { webhookSwitch } from './webhooks';

export const { description, execute } = webhookSwitch(
	'disableInboundWebhook',
	'/api/user/assistants/disable-inbound-webhook',
	false,
);
