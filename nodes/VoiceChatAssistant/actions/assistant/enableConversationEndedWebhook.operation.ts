import { webhookSwitch } from './webhooks';

export const { description, execute } = webhookSwitch(
	'enableConversationEndedWebhook',
	'/api/user/assistants/enable-conversation-ended-webhook',
	true,
);
