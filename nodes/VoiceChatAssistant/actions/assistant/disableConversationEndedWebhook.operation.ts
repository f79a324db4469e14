import { webhookSwitch } from './webhooks';

export const { description, execute } = webhookSwitch(
	'disableConversationEndedWebhook',
	'/api/user/assistants/disable-conversation-ended-webhook',
	false,
);
