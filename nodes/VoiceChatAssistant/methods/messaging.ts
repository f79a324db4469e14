/**
 * Pickers of the messaging operations (merged into the node's methods).
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { listOf, toResults } from './lists';

/** A positive whole number among the current parameters (a locator's value), or undefined. */
function currentId(ctx: ILoadOptionsFunctions, name: string): number | undefined {
	let value: unknown;
	try {
		value = ctx.getCurrentNodeParameter(name, { extractValue: true });
	} catch {
		return undefined;
	}
	const text = String(value ?? '').trim();
	return /^\d+$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

/** The account's numbers that can send SMS: SMS-capable, with an active subscription. */
async function searchSmsNumbers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const numbers = (await listOf(this, '/api/user/phone-numbers/all')).filter(
		(p) => p.sms_capable === true && p.has_active_subscription !== false,
	);
	return toResults(numbers, filter, (p) => `${p.phone_number}${p.region ? ` (${p.region})` : ''}`);
}

/** Every WhatsApp sender; online ones first, offline ones marked. */
async function searchWhatsappSenders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const senders = await listOf(this, '/api/user/whatsapp/senders', { status: 'all' });
	const ordered = [
		...senders.filter((s) => s.status !== 'offline'),
		...senders.filter((s) => s.status === 'offline'),
	];
	return toResults(ordered, filter, (s) => {
		const label = [s.display_name, s.phone_number].filter(Boolean);
		const name = label.length === 2 ? `${label[0]} (${label[1]})` : String(label[0] ?? s.id);
		return s.status === 'offline' ? `${name} [offline]` : name;
	});
}

/** The approved templates of the chosen sender. */
async function searchWhatsappTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const sender = currentId(this, 'senderId');
	if (sender === undefined) return { results: [] };
	const templates = await listOf(this, `/api/user/whatsapp/senders/${sender}/templates`, {
		status: 'approved',
	});
	return toResults(templates, filter, (t) => {
		const details = [t.language, t.category].filter(Boolean).join(', ');
		return details ? `${t.name} (${details})` : String(t.name);
	});
}

export const listSearch = { searchSmsNumbers, searchWhatsappSenders, searchWhatsappTemplates };

export const loadOptions = {};

/**
 * The variable names of a template: its `variables`, or `1`, `2`, ... from the
 * `{{1}}`, `{{2}}` placeholders of its text when the list is missing.
 */
function templateVariableNames(template: IDataObject): string[] {
	if (Array.isArray(template.variables)) {
		return template.variables.map(String).filter((name) => name.trim() !== '');
	}
	const text = typeof template.body_text === 'string' ? template.body_text : '';
	const numbers = new Set<number>();
	for (const match of text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) numbers.add(Number(match[1]));
	return [...numbers].sort((a, b) => a - b).map(String);
}

/** Fields of the template variables mapper: one per variable of the chosen template. */
async function getWhatsappTemplateVariables(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const sender = currentId(this, 'senderId');
	const templateId = currentId(this, 'templateId');
	if (sender === undefined || templateId === undefined) {
		return { fields: [], emptyFieldsNotice: 'Choose a sender and a template first.' };
	}
	// every status: a template typed in by ID is found even before its approval
	const templates = await listOf(this, `/api/user/whatsapp/senders/${sender}/templates`, {
		status: 'all',
	});
	const template = templates.find((t) => Number(t.id) === templateId);
	if (!template) {
		return {
			fields: [],
			emptyFieldsNotice: `The sender has no template with ID ${templateId}.`,
		};
	}
	const fields: ResourceMapperField[] = templateVariableNames(template).map((name) => ({
		id: name,
		// the variable's own name, short enough for the mapper's column; a numbered one by its number
		displayName: /^\d+$/.test(name) ? `Placeholder ${name}` : name,
		required: true,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: 'string',
	}));
	return {
		fields,
		emptyFieldsNotice: fields.length ? undefined : 'This template has no variables.',
	};
}

export const resourceMapping = { getWhatsappTemplateVariables };
