import { describeDisableWebhook } from './disableWebhook';

describeDisableWebhook('disablePostCallWebhook', '/api/user/assistants/disable-webhook');
