import { webhookSwitch } from './webhooks';

export const { description, execute } = webhookSwitch(
	'enableInboundWebhook',
	'/api/user/assistants/enable-inbound-webhook',
	true,
);
