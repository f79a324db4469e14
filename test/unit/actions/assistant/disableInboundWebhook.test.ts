import { describeDisableWebhook } from './disableWebhook';

describeDisableWebhook('disableInboundWebhook', '/api/user/assistants/disable-inbound-webhook');
