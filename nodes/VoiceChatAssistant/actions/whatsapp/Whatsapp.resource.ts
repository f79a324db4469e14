import { withCost } from '../../descriptions';
import { resourceDescription } from '../resourceDescription';
import * as getSenders from './getSenders.operation';
import * as getSessionStatus from './getSessionStatus.operation';
import * as getTemplates from './getTemplates.operation';
import * as sendFreeform from './sendFreeform.operation';
import * as sendTemplate from './sendTemplate.operation';

export const operations = {
	getSenders,
	getSessionStatus,
	getTemplates,
	sendFreeform,
	sendTemplate,
};

export const description = resourceDescription('whatsapp', 'getSenders', operations, [
	{
		name: 'Get Senders',
		value: 'getSenders',
		action: 'Get WhatsApp senders',
		description: 'List the WhatsApp Business senders of the account',
	},
	{
		name: 'Get Session Status',
		value: 'getSessionStatus',
		action: 'Get the WhatsApp session status of a customer',
		description:
			"Check whether a customer's 24-hour window is open (free text allowed) or a template is needed (read-only, free)",
	},
	{
		name: 'Get Templates',
		value: 'getTemplates',
		action: 'Get WhatsApp templates of a sender',
		description: 'List the message templates of a sender and their variables',
	},
	{
		name: 'Send Freeform',
		value: 'sendFreeform',
		action: 'Send a WhatsApp freeform message',
		description: withCost('Reply with free text inside the 24-hour window', 'sendWhatsApp'),
	},
	{
		name: 'Send Template',
		value: 'sendTemplate',
		action: 'Send a WhatsApp template message',
		description: withCost('Send an approved template, e.g. for a first contact', 'sendWhatsApp'),
	},
]);
