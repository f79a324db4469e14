import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { locatorValue } from '../shared/ids';
import { asList, apiRequest } from '../transport';

/** Option loaders of the assistant fields; each list also accepts an ID or an expression in the UI. */

async function options(
	ctx: ILoadOptionsFunctions,
	path: string,
	qs: IDataObject | undefined,
	label: (entry: IDataObject) => string,
): Promise<INodePropertyOptions[]> {
	const list = asList(await apiRequest.call(ctx, 'GET', path, { qs }));
	return list
		.map((entry) => ({ name: label(entry), value: entry.id as number }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

function current(ctx: ILoadOptionsFunctions, name: string): string | undefined {
	// a picker (resource locator) by its value
	const value = locatorValue(ctx.getCurrentNodeParameter(name));
	return value === undefined || value === null || value === '' ? undefined : String(value);
}

function chosenMode(ctx: ILoadOptionsFunctions): string | undefined {
	const mode = current(ctx, 'mode');
	return mode && mode !== 'keep' ? mode : undefined;
}

export async function getLanguages(this: ILoadOptionsFunctions) {
	return await options(
		this,
		'/api/user/assistants/languages',
		undefined,
		(l) => `${l.name}${l.code ? ` (${l.code})` : ''}`,
	);
}

/** Voices of the chosen engine mode and language. */
export async function getVoices(this: ILoadOptionsFunctions) {
	const qs: IDataObject = {};
	const mode = chosenMode(this);
	if (mode) qs.mode = mode;
	const language = current(this, 'languageId') ?? current(this, 'updateFields.language_id');
	if (language && /^\d+$/.test(language)) qs.language_id = Number(language);
	return await options(
		this,
		'/api/user/assistants/voices',
		qs,
		(v) => `${v.name}${v.gender ? ` (${v.gender})` : ''}`,
	);
}

/** Models of the chosen mode: LLMs for pipeline, the mode's own models for multimodal and dualplex. */
export async function getModels(this: ILoadOptionsFunctions) {
	const mode = chosenMode(this) ?? 'pipeline';
	return await options(
		this,
		'/api/user/assistants/models',
		{ type: mode === 'pipeline' ? 'llm' : mode },
		(m) => String(m.name),
	);
}

export async function getLlmModels(this: ILoadOptionsFunctions) {
	return await options(this, '/api/user/assistants/models', { type: 'llm' }, (m) => String(m.name));
}

export async function getSynthesizerProviders(this: ILoadOptionsFunctions) {
	return await options(this, '/api/user/assistants/synthesizer-providers', undefined, (p) =>
		String(p.name),
	);
}

export async function getTranscriberProviders(this: ILoadOptionsFunctions) {
	return await options(this, '/api/user/assistants/transcriber-providers', undefined, (p) =>
		String(p.name),
	);
}

export async function getKnowledgebases(this: ILoadOptionsFunctions) {
	return await options(this, '/api/user/knowledgebases', undefined, (k) => String(k.name));
}

/** Phone numbers the assistant's type can take (inbound leaves out caller-ID and taken numbers). */
export async function getAssignablePhoneNumbers(this: ILoadOptionsFunctions) {
	const type = current(this, 'type') ?? current(this, 'updateFields.type') ?? 'outbound';
	return await options(
		this,
		'/api/user/assistants/phone-numbers',
		{ type },
		(p) => `${p.phone_number}${p.type_label ? ` (${p.type_label})` : ''}`,
	);
}

export async function getTools(this: ILoadOptionsFunctions) {
	return await options(this, '/api/user/tools', undefined, (t) => String(t.name));
}
