import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, asList, isObject, unwrap } from '../../VoiceChatAssistant/transport';
import { credentialSettings } from '../../VoiceChatAssistant/transport/credentials';
import {
	readDefinition,
	readToolAssistants,
	readToolRegistration,
	sameDefinition,
	toolBody,
	writeToolRegistration,
} from './midCallTool';
import type { ToolRegistration } from './midCallTool';
import { newSecret, toolSecret } from '../core/secrets';
import { addTool, readAssistantTools, setToolIds } from './toolIds';
import type { ToolIdsState } from './toolIds';
import { aboutAssistant, asNodeError, assertReachable } from '../core/service';

/**
 * checkExists / create / delete of the mid-call tool event.
 *
 * The tool is created (or updated) with this n8n's webhook URL and a secret
 * header, then added to each chosen assistant's `tool_ids`. The assistant
 * update replaces `tool_ids`, so each change reads the assistant's current
 * list first (the assistant list carries each assistant's whole
 * configuration) and sends it back with only this tool added or removed. An
 * assistant whose list does not show `tool_ids` is not touched: the tool is
 * left for the user to add by hand, and n8n's log says so.
 */

const LOG = 'Voice Chat Assistant Trigger:';
const TOOLS = '/api/user/tools';

/** Whether an error or an answer says the tool no longer exists. */
function toolGone(value: unknown): boolean {
	if (!isObject(value)) return false;
	if (String((value as { httpCode?: unknown }).httpCode) === '404') return true;
	const message = value.message;
	return (
		typeof message === 'string' &&
		/tool not found/i.test(message) &&
		!isObject(value.data) &&
		value.id === undefined
	);
}

/** The tool as the service holds it, or undefined when it is gone. */
async function readTool(ctx: IHookFunctions, toolId: number): Promise<IDataObject | undefined> {
	try {
		const response = await apiRequest.call(ctx, 'GET', `${TOOLS}/${toolId}`);
		if (toolGone(response)) return undefined;
		return unwrap(response);
	} catch (error) {
		if (toolGone(error)) return undefined;
		throw asNodeError(ctx.getNode(), error);
	}
}

/**
 * The ids of the tools on the service that call `webhookUrl`: the URL holds
 * the node's webhook id, so only this node's tools match. Used when the
 * node's static data holds no registration (a first activation, or n8n ending
 * a test listener with the workflow as it was saved).
 */
async function toolsCalling(ctx: IHookFunctions, webhookUrl: string): Promise<number[]> {
	const response = await apiRequest.call(ctx, 'GET', TOOLS);
	return asList(response)
		.filter((tool) => tool.endpoint === webhookUrl)
		.map((tool) => Number(tool.id))
		.filter((id) => Number.isInteger(id) && id > 0);
}

function idOf(ctx: IHookFunctions, response: unknown): number {
	const id = Number(unwrap(response).id);
	if (!Number.isInteger(id) || id < 1) {
		throw new NodeOperationError(ctx.getNode(), 'The service created the tool but gave no id', {
			description: 'Look for the tool in the service and delete it, then activate again.',
		});
	}
	return id;
}

function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url)
		throw new NodeOperationError(
			ctx.getNode(),
			'n8n did not provide a webhook URL for this trigger',
		);
	return url;
}

/** Whether the tool and its place in each chosen assistant are what the form asks for. */
export async function toolCheckExists(ctx: IHookFunctions): Promise<boolean> {
	const webhookUrl = webhookUrlOf(ctx);
	const definition = readDefinition(ctx);
	const assistantIds = readToolAssistants(ctx);
	const registration = readToolRegistration(ctx.getWorkflowStaticData('node'), webhookUrl);
	if (
		!registration ||
		registration.webhookUrl !== webhookUrl ||
		!sameDefinition(registration.definition, definition) ||
		registration.assistants.join(',') !== assistantIds.join(',')
	)
		return false;
	const tool = await readTool(ctx, registration.toolId);
	if (!tool || tool.endpoint !== webhookUrl) return false;
	const states = await readAssistantTools(ctx, assistantIds);
	for (const id of assistantIds) {
		const state = states.get(id) as ToolIdsState;
		if (!state.found) return false;
		if (state.toolIds && !state.toolIds.includes(registration.toolId)) return false;
	}
	return true;
}

/** Takes the tool out of an assistant's list, keeping the others; true when done or nothing to do. */
async function detach(
	ctx: IHookFunctions,
	assistantId: number,
	toolId: number,
	state: ToolIdsState | undefined,
): Promise<void> {
	if (!state?.found || !state.toolIds || !state.toolIds.includes(toolId)) return;
	await setToolIds(
		ctx,
		assistantId,
		state.toolIds.filter((id) => id !== toolId),
	);
}

/**
 * Creates the tool (or updates the one registered before, or creates it again
 * when it was deleted on the service) and adds it to each chosen assistant,
 * keeping its other tools. When adding fails, what this call added is taken
 * out again and a tool created by this call is deleted before the error is
 * reported.
 */
export async function toolCreate(ctx: IHookFunctions): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	const webhookUrl = webhookUrlOf(ctx);
	const definition = readDefinition(ctx);
	const assistantIds = readToolAssistants(ctx);
	await assertReachable(
		ctx.getNode(),
		webhookUrl,
		async () => (await credentialSettings(ctx)).baseUrl,
	);
	const previous = readToolRegistration(staticData, webhookUrl);
	// derived: the same for every activation (core/secrets.ts); never empty (a registration read back
	// from the service has no secret, and a tool with an empty header would be refused every request)
	const secret = (await toolSecret(ctx, webhookUrl)) ?? (previous?.secret || newSecret());
	const body = toolBody(definition, webhookUrl, secret);

	let toolId: number | undefined;
	let created = false;
	// without a registration, a tool of this node left on the service (e.g. by a test listener) is taken up again
	const known = previous ? previous.toolId : (await toolsCalling(ctx, webhookUrl))[0];
	if (known !== undefined) {
		try {
			const response = await apiRequest.call(ctx, 'PUT', `${TOOLS}/${known}`, { body });
			if (!toolGone(response)) toolId = known;
		} catch (error) {
			if (!toolGone(error)) throw asNodeError(ctx.getNode(), error);
		}
		// a stale save may hold a tool an earlier activation deleted: this node's tool on the service, if any
		const other =
			toolId === undefined && previous
				? (await toolsCalling(ctx, webhookUrl)).find((id) => id !== known)
				: undefined;
		if (other !== undefined) {
			await apiRequest.call(ctx, 'PUT', `${TOOLS}/${other}`, { body });
			toolId = other;
		} else if (toolId === undefined) {
			ctx.logger.info(`${LOG} mid-call tool ${known} no longer exists; creating it again`);
		}
	}
	if (toolId === undefined) {
		toolId = idOf(ctx, await apiRequest.call(ctx, 'POST', TOOLS, { body }));
		created = true;
	}
	const registration: ToolRegistration = {
		toolId,
		webhookUrl,
		secret,
		definition,
		assistants: assistantIds,
		attached: created ? [] : (previous?.attached ?? []).filter((id) => assistantIds.includes(id)),
	};
	// saved at once: a later failure still leaves delete what to clean up
	writeToolRegistration(staticData, webhookUrl, registration);

	const droppedIds = created
		? []
		: (previous?.attached ?? []).filter((id) => !assistantIds.includes(id));
	const states = await readAssistantTools(ctx, [...assistantIds, ...droppedIds]);
	const addedNow: number[] = [];
	for (const assistantId of assistantIds) {
		const state = states.get(assistantId) as ToolIdsState;
		try {
			if (!state.found) {
				throw new NodeOperationError(ctx.getNode(), `Assistant ${assistantId} not found`, {
					description:
						'Check that the assistant exists and belongs to the account of the credential.',
				});
			}
			if (!state.toolIds) {
				ctx.logger.warn(
					`${LOG} the service does not show the mid-call tools of assistant ${assistantId}; tool ${toolId} was not added to it (add it by hand)`,
				);
				continue;
			}
			if (!state.toolIds.includes(toolId)) {
				await addTool(ctx, assistantId, toolId, state.toolIds);
				addedNow.push(assistantId);
			}
			if (!registration.attached.includes(assistantId)) registration.attached.push(assistantId);
			writeToolRegistration(staticData, webhookUrl, registration);
		} catch (error) {
			await undo(ctx, registration, addedNow, created);
			writeToolRegistration(staticData, webhookUrl, created ? undefined : registration);
			throw aboutAssistant(ctx.getNode(), error, assistantId, 'Adding the mid-call tool');
		}
	}
	// assistants no longer chosen lose the tool, from their lists as they are now (the adds above took
	// time, and another workflow may have changed them since the first read)
	for (const assistantId of droppedIds) {
		try {
			const now = await readAssistantTools(ctx, [assistantId]);
			await detach(ctx, assistantId, toolId, now.get(assistantId));
		} catch (error) {
			ctx.logger.warn(
				`${LOG} could not remove mid-call tool ${toolId} from assistant ${assistantId}, which is no longer chosen: ${(error as Error).message}`,
			);
		}
	}
	return true;
}

/** Takes out what one create added and deletes a tool it created; what fails is logged. */
async function undo(
	ctx: IHookFunctions,
	registration: ToolRegistration,
	addedNow: number[],
	created: boolean,
): Promise<void> {
	for (const assistantId of addedNow) {
		try {
			// only this tool comes out of the list as it is now: a tool another workflow added since the
			// first read stays (writing back the list of that read would drop it)
			const now = await readAssistantTools(ctx, [assistantId]);
			await detach(ctx, assistantId, registration.toolId, now.get(assistantId));
			registration.attached = registration.attached.filter((id) => id !== assistantId);
		} catch (error) {
			ctx.logger.warn(
				`${LOG} could not remove mid-call tool ${registration.toolId} from assistant ${assistantId}: ${(error as Error).message}`,
			);
		}
	}
	if (!created) return;
	try {
		await apiRequest.call(ctx, 'DELETE', `${TOOLS}/${registration.toolId}`);
	} catch (error) {
		if (!toolGone(error)) {
			ctx.logger.warn(
				`${LOG} could not delete mid-call tool ${registration.toolId}: ${(error as Error).message}`,
			);
		}
	}
}

/**
 * Without a registration in the static data (n8n ends a test listener with
 * the workflow as it was saved): the tool of this node's webhook URL, if the
 * service has one, attached to the assistants of the form.
 */
async function registrationFromService(ctx: IHookFunctions): Promise<ToolRegistration | undefined> {
	const webhookUrl = ctx.getNodeWebhookUrl('default');
	if (!webhookUrl) return undefined;
	let toolId: number | undefined;
	let assistants: number[];
	try {
		toolId = (await toolsCalling(ctx, webhookUrl))[0];
		assistants = readToolAssistants(ctx);
	} catch (error) {
		ctx.logger.warn(
			`${LOG} could not look for this node's mid-call tool: ${(error as Error).message}`,
		);
		return undefined;
	}
	if (toolId === undefined) return undefined;
	return {
		toolId,
		webhookUrl,
		// the service does not show it; kept so a request is still accepted while removal is unfinished
		secret: (await toolSecret(ctx, webhookUrl)) ?? '',
		definition: { name: '', description: '', timeout: 0, schema: [] },
		assistants,
		attached: assistants,
	};
}

/**
 * Takes the tool out of the assistants it was added to (reading each one's
 * list first and keeping the other tools), then deletes it. When a step fails
 * the registration is kept, so the next activation or removal finishes it.
 */
export async function toolRemove(ctx: IHookFunctions): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	const webhookUrl = ctx.getNodeWebhookUrl('default') ?? '';
	const registration =
		readToolRegistration(staticData, webhookUrl) ?? (await registrationFromService(ctx));
	if (!registration) {
		writeToolRegistration(staticData, webhookUrl, undefined);
		return true;
	}
	const { toolId } = registration;
	const remaining: number[] = [];
	for (const assistantId of registration.attached) {
		try {
			// each assistant's list read right before its write (the update replaces the whole list):
			// a tool another workflow added meanwhile is kept
			const state = (await readAssistantTools(ctx, [assistantId])).get(assistantId);
			await detach(ctx, assistantId, toolId, state);
		} catch (error) {
			ctx.logger.warn(
				`${LOG} could not remove mid-call tool ${toolId} from assistant ${assistantId}: ${(error as Error).message}`,
			);
			remaining.push(assistantId);
		}
	}
	if (remaining.length) {
		writeToolRegistration(staticData, webhookUrl, { ...registration, attached: remaining });
		return false;
	}
	try {
		const response = await apiRequest.call(ctx, 'DELETE', `${TOOLS}/${toolId}`);
		if (toolGone(response)) ctx.logger.debug(`${LOG} mid-call tool ${toolId} was already deleted`);
	} catch (error) {
		if (!toolGone(error)) {
			ctx.logger.warn(
				`${LOG} could not delete mid-call tool ${toolId}: ${(error as Error).message}`,
			);
			writeToolRegistration(staticData, webhookUrl, { ...registration, attached: [] });
			return false;
		}
	}
	writeToolRegistration(staticData, webhookUrl, undefined);
	return true;
}
