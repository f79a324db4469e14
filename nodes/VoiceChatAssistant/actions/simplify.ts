import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { isTranscript, transcriptText } from '../shared/transcript';
import { OutputItems } from './types';
import type { Simplify } from './types';

/**
 * Simplify (n8n's convention for answers with more than ten fields): on by
 * default, so an AI agent that uses the node as a tool gets the fields that
 * matter rather than pages of configuration; people can switch it off for the
 * whole record.
 */

function pick(record: IDataObject, keys: string[]): IDataObject {
	const out: IDataObject = {};
	for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
	return out;
}

/** A call: ids, status, timing, who, what was extracted, the summary and the transcript as one string. */
export function simplifyCall(call: IDataObject): IDataObject {
	const out = pick(call, [
		'id',
		'type',
		'status',
		'duration',
		'assistant_name',
		'client_phone_number',
		'created_at',
	]);
	out.variables = call.variables ?? call.extracted_variables ?? {};
	const evaluation = call.evaluation as IDataObject | undefined;
	const summary = evaluation && !Array.isArray(evaluation) ? evaluation.summary : undefined;
	if (summary !== undefined) out.summary = summary;
	if (isTranscript(call.transcript)) out.transcript = transcriptText(call.transcript);
	return out;
}

export function simplifyAssistant(assistant: IDataObject): IDataObject {
	return pick(assistant, [
		'id',
		'uuid',
		'name',
		'status',
		'type',
		'mode',
		'phone_number',
		'is_webhook_active',
		'created_at',
		'updated_at',
	]);
}

export function simplifyLead(lead: IDataObject): IDataObject {
	const out = pick(lead, [
		'id',
		'campaign_id',
		'phone_number',
		'status',
		'variables',
		'created_at',
		'updated_at',
	]);
	const campaign = lead.campaign as IDataObject | null | undefined;
	if (campaign && typeof campaign === 'object') out.campaign_name = campaign.name;
	return out;
}

export function simplifyCampaign(campaign: IDataObject): IDataObject {
	return pick(campaign, [
		'id',
		'name',
		'status',
		'max_calls_in_parallel',
		'allowed_hours_start_time',
		'allowed_hours_end_time',
		'allowed_days',
		'max_retries',
		'created_at',
		'updated_at',
	]);
}

/** A conversation with its history: the messages as one transcript string, and the last message. */
export function simplifyConversation(conversation: IDataObject): IDataObject {
	const history = Array.isArray(conversation.history)
		? (conversation.history as IDataObject[])
		: [];
	const out = pick(conversation, ['conversation_id', 'id']);
	out.message_count = history.length;
	out.transcript = transcriptText(history);
	const last = history[history.length - 1];
	if (last) out.last_message = last.content;
	return out;
}

/** An operation's output with each record simplified (binary data kept). */
export function simplifyOutput(
	result: IDataObject | IDataObject[] | OutputItems,
	simplify: (record: IDataObject) => IDataObject,
): IDataObject | IDataObject[] | OutputItems {
	if (result instanceof OutputItems) {
		return new OutputItems(result.items.map((item) => ({ ...item, json: simplify(item.json) })));
	}
	return Array.isArray(result) ? result.map(simplify) : simplify(result);
}

/** The Simplify toggle of an operation that declares `simplify`. */
export function simplifyToggle(
	resource: string,
	operation: string,
	simplify: Simplify,
): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: `Whether to return only the fields that matter (${simplify.fields}) instead of the whole record`,
		displayOptions: { show: { resource: [resource], operation: [operation] } },
	};
}
