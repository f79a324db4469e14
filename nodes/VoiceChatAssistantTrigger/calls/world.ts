import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';

import { credentialSettings } from '../../VoiceChatAssistant/transport/credentials';
import { assistantSecrets, nodeParts } from '../core/secrets';
import { newestRegistration } from './memory';
import { webhookBases } from './ownership';
import type { Prober } from './ownership';
import type { Registration } from './registration';
import type { TriggerEvent } from '../core/events';

/**
 * What a hook of the call family (checkExists, create, delete) reads of n8n once, at its start:
 * the node and its key, its static data and the registration saved there, the credential (its
 * secrets and Base URL), and where this n8n's webhooks are (the URLs it may probe). What the form
 * asks for is readWanted (registration.ts); what the service has, readWebhookStates (ownership.ts).
 */
export interface HookWorld extends Prober {
	node: INode;
	/** The workflow and node, as the secrets take them (core/secrets.ts): the key of process memory. */
	key: string;
	staticData: IDataObject;
	/** The saved registration, or this process's latest where the saved one is a stale save of its own. */
	registration: Registration | undefined;
	/** Options → URL Secret Version. */
	secretVersion: number;
	/** The secret of one assistant's URL, or undefined without an API key. */
	secretOf(event: TriggerEvent, assistantId: number): string | undefined;
	/** The credential's Base URL (rejects as reading the credential did). */
	serviceBaseUrl(): Promise<string>;
}

export async function readWorld(ctx: IHookFunctions): Promise<HookWorld> {
	const credential = credentialSettings(ctx);
	const authorization = await credential.then(
		(settings) => settings.authorization,
		() => undefined,
	);
	const { version, secretOf } = assistantSecrets(ctx, authorization);
	const key = nodeParts(ctx).join('|');
	const staticData = ctx.getWorkflowStaticData('node');
	return {
		node: ctx.getNode(),
		key,
		staticData,
		registration: newestRegistration(key, staticData, ctx.logger),
		secretVersion: version,
		secretOf,
		serviceBaseUrl: async () => (await credential).baseUrl,
		authorization,
		bases: webhookBases(ctx.getNodeWebhookUrl('default') ?? ''),
		httpRequest: async (options) => await ctx.helpers.httpRequest(options),
		logger: ctx.logger,
	};
}
