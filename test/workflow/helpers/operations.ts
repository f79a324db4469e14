/**
 * Which workflow test file runs which operations. The files under
 * test/workflow/resources/ are grouped by resource: `RESOURCE_FILES` maps
 * each file (resources/<name>.test.ts) to every `resource:operation` of its
 * resources, and a resource lives in exactly one file. Every file checks that
 * it ran exactly its list (`ownRuns`); resources/coverage.test.ts checks that
 * the lists together are the node's operations, each in one list.
 */
import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { VoiceChatAssistant } from '../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';
import type { ActionWorkflowOptions, Simulator } from './workflows';
import { runAction, SERVICE } from './workflows';

export const RESOURCE_FILES: Record<string, string[]> = {
	account: ['account:getProfile', 'account:getApiKeys'],
	assistant: [
		'assistant:getLanguages',
		'assistant:getVoices',
		'assistant:getModels',
		'assistant:getSynthesizerProviders',
		'assistant:getTranscriberProviders',
		'assistant:getAssignablePhoneNumbers',
		'assistant:getOutbound',
		'assistant:getMany',
		'assistant:get',
		'assistant:create',
		'assistant:update',
		'assistant:delete',
		'assistant:enableInboundWebhook',
		'assistant:disableInboundWebhook',
		'assistant:enablePostCallWebhook',
		'assistant:disablePostCallWebhook',
		'assistant:enableConversationEndedWebhook',
		'assistant:disableConversationEndedWebhook',
	],
	knowledge: [
		'knowledgebase:create',
		'knowledgebase:get',
		'knowledgebase:getMany',
		'knowledgebase:update',
		'knowledgebase:delete',
		'document:create',
		'document:get',
		'document:getMany',
		'document:update',
		'document:delete',
	],
	midCallTool: ['tool:create', 'tool:get', 'tool:getMany', 'tool:update', 'tool:delete'],
	campaign: [
		'campaign:create',
		'campaign:get',
		'campaign:getMany',
		'campaign:start',
		'campaign:stop',
		'campaign:delete',
		'lead:create',
		'lead:getMany',
		'lead:update',
		'lead:delete',
	],
	call: ['call:make', 'call:get', 'call:getMany', 'call:delete'],
	conversation: [
		'conversation:create',
		'conversation:sendMessage',
		'conversation:get',
		'conversation:getMany',
		'conversation:generateAiReply',
		'conversation:disableAi',
		'conversation:enableAi',
	],
	messaging: [
		'sms:send',
		'whatsapp:getSenders',
		'whatsapp:getTemplates',
		'whatsapp:getSessionStatus',
		'whatsapp:sendTemplate',
		'whatsapp:sendFreeform',
	],
	telephony: [
		'phoneNumber:getMany',
		'phoneNumber:getManySmsCapable',
		'phoneNumber:search',
		'phoneNumber:purchase',
		'phoneNumber:updateNickname',
		'phoneNumber:release',
		'sipTrunk:create',
		'sipTrunk:get',
		'sipTrunk:getMany',
		'sipTrunk:update',
		'sipTrunk:delete',
	],
	organisation: [
		'folder:create',
		'folder:getMany',
		'folder:update',
		'folder:delete',
		'label:create',
		'label:getMany',
		'label:update',
		'label:delete',
	],
};

/** The resources of a file of RESOURCE_FILES. */
export const resourcesOf = (file: string): string[] => [
	...new Set(RESOURCE_FILES[file].map((name) => name.split(':')[0])),
];

/**
 * The operations of the file's own resources among those run, sorted: what a
 * file checks against its list. Operations of other resources a file runs to
 * set up or look at its own (Assistant → Update in organisation.test.ts) are
 * those other files' business.
 */
export function ownRuns(file: string, exercised: Iterable<string>): string[] {
	const resources = resourcesOf(file);
	return [...new Set(exercised)].filter((name) => resources.includes(name.split(':')[0])).sort();
}

/**
 * Runs operations in Manual Trigger → (Rows →) Voice Chat Assistant against the
 * simulator and records each `resource:operation` in `exercised`.
 */
export function operationRunner() {
	const exercised = new Set<string>();

	/** Runs one operation; returns the output items (a failed node throws its error). */
	async function run(
		sim: Simulator,
		parameters: IDataObject,
		options: ActionWorkflowOptions = {},
	): Promise<INodeExecutionData[]> {
		exercised.add(`${parameters.resource}:${parameters.operation}`);
		const result = await runAction(sim, parameters, options);
		const error = result.errorOf(SERVICE) ?? result.error;
		if (error) throw Object.assign(new Error(error.message), error);
		return result.outputOf(SERVICE);
	}

	/** The same, JSON of the items only. */
	async function op(
		sim: Simulator,
		parameters: IDataObject,
		options: ActionWorkflowOptions = {},
	): Promise<any[]> {
		return (await run(sim, parameters, options)).map((item) => item.json);
	}

	/** `op` for one resource: runs `operation` with `fields` as its other parameters. */
	const operations =
		(sim: Simulator, resource: string) =>
		(operation: string, fields: IDataObject = {}, options: ActionWorkflowOptions = {}) =>
			op(sim, { resource, operation, ...fields }, options);

	return { exercised, run, op, operations };
}

/** Every `resource:operation` the node offers, from its description. */
export function allOperations(): string[] {
	const properties = new VoiceChatAssistant().description.properties as INodeProperties[];
	const resources = (
		properties.find((p) => p.name === 'resource')!.options as Array<{ value: string }>
	).map((o) => o.value);
	const all: string[] = [];
	for (const resource of resources) {
		const picker = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		);
		for (const option of (picker?.options ?? []) as Array<{ value: string }>)
			all.push(`${resource}:${option.value}`);
	}
	return all;
}
