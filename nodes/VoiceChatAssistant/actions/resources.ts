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

/**
 * The Resource picker's options in the order it lists them (by name): the
 * name and description of each resource of `resources`, every one of them.
 */
const resourceLabels: Record<keyof typeof resources, [name: string, description: string]> = {
	account: ['Account', 'Your profile, balance and API keys'],
	assistant: ['Assistant', 'AI assistants that handle calls and chats'],
	call: ['Call', 'Phone calls made and received by assistants'],
	campaign: ['Campaign', 'Outbound calling campaigns'],
	conversation: ['Conversation', 'Text chats with an assistant'],
	document: ['Document', 'Websites and files inside a knowledgebase'],
	folder: ['Folder', 'Folders that group assistants'],
	knowledgebase: ['Knowledgebase', 'Collections of documents that give assistants knowledge'],
	label: ['Label', 'Labels that tag assistants'],
	lead: ['Lead', 'Contacts to be called by a campaign'],
	tool: ['Mid Call Tool', 'HTTP endpoints an assistant can call during a call'],
	phoneNumber: ['Phone Number', 'Phone numbers of the account and numbers to buy'],
	sipTrunk: ['SIP Trunk', 'Your own SIP trunks, used like phone numbers'],
	sms: ['SMS', 'Text messages sent from numbers of the account'],
	whatsapp: ['WhatsApp', 'WhatsApp Business senders, templates and messages'],
};

const resourceOptions: INodePropertyOptions[] = Object.entries(resourceLabels).map(
	([value, [name, description]]) => ({ name, value, description }),
);

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
