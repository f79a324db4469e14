import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as account from './account/Account.resource';
import * as assistant from './assistant/Assistant.resource';
import * as call from './call/Call.resource';
import * as campaign from './campaign/Campaign.resource';
import * as conversation from './conversation/Conversation.resource';
import * as document from './document/Document.resource';
import * as folder from './folder/Folder.resource';
import * as knowledgebase from './knowledgebase/Knowledgebase.resource';
import * as label from './label/Label.resource';
import * as lead from './lead/Lead.resource';
import * as phoneNumber from './phoneNumber/PhoneNumber.resource';
import * as sipTrunk from './sipTrunk/SipTrunk.resource';
import * as sms from './sms/Sms.resource';
import * as tool from './tool/Tool.resource';
import * as whatsapp from './whatsapp/Whatsapp.resource';
import { simplifyToggle } from './simplify';
import type { ResourceModule } from './types';

/** The resources and their operations: the pickers' values are checked against it when compiling. */
export const resources = {
	account,
	assistant,
	call,
	campaign,
	conversation,
	document,
	folder,
	knowledgebase,
	label,
	lead,
	phoneNumber,
	sipTrunk,
	sms,
	tool,
	whatsapp,
} satisfies Record<string, ResourceModule>;

/** The operation of a resource and operation picked in the node, if there is one. */
export function operationOf(resource: string, operation: string) {
	const modules: Record<string, ResourceModule> = resources;
	return modules[resource]?.operations[operation];
}

/** Options of the Resource picker: each value a resource of `resources`. */
const resourceOptions: Array<INodePropertyOptions & { value: keyof typeof resources }> = [
	{ name: 'Account', value: 'account', description: 'Your profile, balance and API keys' },
	{
		name: 'Assistant',
		value: 'assistant',
		description: 'AI assistants that handle calls and chats',
	},
	{ name: 'Call', value: 'call', description: 'Phone calls made and received by assistants' },
	{ name: 'Campaign', value: 'campaign', description: 'Outbound calling campaigns' },
	{ name: 'Conversation', value: 'conversation', description: 'Text chats with an assistant' },
	{
		name: 'Document',
		value: 'document',
		description: 'Websites and files inside a knowledgebase',
	},
	{ name: 'Folder', value: 'folder', description: 'Folders that group assistants' },
	{
		name: 'Knowledgebase',
		value: 'knowledgebase',
		description: 'Collections of documents that give assistants knowledge',
	},
	{ name: 'Label', value: 'label', description: 'Labels that tag assistants' },
	{ name: 'Lead', value: 'lead', description: 'Contacts to be called by a campaign' },
	{
		name: 'Mid Call Tool',
		value: 'tool',
		description: 'HTTP endpoints an assistant can call during a call',
	},
	{
		name: 'Phone Number',
		value: 'phoneNumber',
		description: 'Phone numbers of the account and numbers to buy',
	},
	{
		name: 'SIP Trunk',
		value: 'sipTrunk',
		description: 'Your own SIP trunks, used like phone numbers',
	},
	{ name: 'SMS', value: 'sms', description: 'Text messages sent from numbers of the account' },
	{
		name: 'WhatsApp',
		value: 'whatsapp',
		description: 'WhatsApp Business senders, templates and messages',
	},
];

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: resourceOptions,
	default: 'assistant',
};

/** A resource's fields: its picker and operations' fields, and the Simplify toggle of each operation that has one. */
function fieldsOf(name: string, resource: ResourceModule): INodeProperties[] {
	const toggles = Object.entries(resource.operations).flatMap(([operation, module]) =>
		module.simplify ? [simplifyToggle(name, operation, module.simplify)] : [],
	);
	return [...resource.description, ...toggles];
}

export const allProperties: INodeProperties[] = [
	resourceProperty,
	...Object.entries(resources).flatMap(([name, resource]) => fieldsOf(name, resource)),
];
