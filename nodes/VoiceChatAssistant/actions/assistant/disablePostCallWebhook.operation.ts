import { webhookSwitch } from './webhooks';

export const { description, execute } = webhookSwitch(
	'disablePostCallWebhook',
	'/api/user/assistants/disable-webhook',
	false,
);
