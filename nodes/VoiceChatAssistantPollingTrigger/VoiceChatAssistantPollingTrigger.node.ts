import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, deepCopy } from 'n8n-workflow';

import {
	searchAssistants,
	searchCampaigns,
	searchKnowledgebases,
} from '../VoiceChatAssistant/methods/listSearch';
import { whenCredentialChosen } from '../VoiceChatAssistant/methods/credentialGuard';
import { getClock } from '../VoiceChatAssistant/transport/clock';
import { forgetCredentialSettings } from '../VoiceChatAssistant/transport/credentials';
import { POLL_EVENTS } from './events';
import type { PollState } from './events';
import { CALL_ENDED } from './events/callEnded';
import { CONVERSATION_ENDED } from './events/conversationEnded';
import { newProcessId } from './events/process';
import { SHARED_FIELDS } from './fields';
import { board } from './singleFlight';

/** The events in the order of the Event picker (by name). */
const EVENTS = Object.entries(POLL_EVENTS).sort(([, a], [, b]) =>
	a.option.name.localeCompare(b.option.name),
);

export class VoiceChatAssistantPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Voice Chat Assistant Polling Trigger',
		name: 'voiceChatAssistantPollingTrigger',
		icon: {
			light: 'file:../../icons/voiceChatAssistant.svg',
			dark: 'file:../../icons/voiceChatAssistant.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: `={{ {${EVENTS.map(([value, event]) => `"${value}": "${event.subtitle}"`).join(', ')}}[$parameter["event"]] }}`,
		description:
			'Starts the workflow when calls or chats of voice assistants end, documents finish processing, leads and campaigns change status, or the balance runs low, by asking the service at intervals: no public URL needed (Famulor)',
		defaults: { name: 'Voice Chat Assistant Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'voiceChatAssistantApi', required: true }],
		properties: [
			{
				displayName:
					'This trigger asks the service for news at the times set in Poll Times, so it works on an n8n that the internet cannot reach, and any number of workflows can watch the same assistant. The first poll only notes where things stand: it emits what happens after activation.',
				name: 'pollingNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				default: CALL_ENDED,
				options: EVENTS.map(([value, event]) => ({ ...event.option, value })),
			},
			...SHARED_FIELDS,
			...EVENTS.flatMap(([, event]) => event.fields ?? []),
		],
	};

	methods = {
		listSearch: whenCredentialChosen.listSearch({
			searchAssistants,
			searchCampaigns,
			searchKnowledgebases,
		}),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// one poll at a time per trigger (n8n starts the next poll without waiting for this one);
		// a manual run ("Fetch Test Event") keeps no state and never waits for a poll
		const boarding = this.getMode() === 'manual' ? undefined : board(this);
		if (this.getMode() !== 'manual' && !boarding) return null;
		const saved = this.getWorkflowStaticData('node');
		// the poll works on its own copy: when it throws, the saved position stays exactly as it
		// was (n8n keeps the static data object in memory for the next poll), and the next poll
		// emits the same events again
		const state = deepCopy(saved) as PollState;
		let result: INodeExecutionData[][] | null;
		let counts = true;
		try {
			result = await pollOnce.call(this, state);
		} finally {
			counts = boarding?.current() ?? true;
			boarding?.land();
			// n8n reuses this context for every poll of an activation: the credential is read
			// again at the next poll (a rotated key or a new Base URL is used from then on) and
			// the key is not kept in memory between polls
			forgetCredentialSettings(this);
		}
		// a poll taken over by a later one (it ran past FLIGHT_TAKEOVER_MS) counts for nothing
		if (!counts) return null;
		// written back at the top level, each part as a new object: n8n notices changes of the
		// node's static data there
		for (const key of Object.keys(saved)) {
			if (!(key in state)) delete saved[key];
		}
		for (const [key, value] of Object.entries(state)) {
			if (JSON.stringify(saved[key]) !== JSON.stringify(value)) {
				saved[key] = value as IDataObject[string];
			}
		}
		return result;
	}
}

/** One poll: the event's settings, then its test read, first poll or later poll. */
async function pollOnce(
	this: IPollFunctions,
	state: PollState,
): Promise<INodeExecutionData[][] | null> {
	const event = this.getNodeParameter('event') as string;
	const manual = this.getMode() === 'manual';
	const now = getClock().now();
	const run = (POLL_EVENTS[event] ?? POLL_EVENTS[CONVERSATION_ENDED]).read(this);
	if (manual) {
		const found = await run.test();
		if (found) return found;
		const nothingYet = POLL_EVENTS[event] ? run.nothingYet : 'No event found yet';
		throw new NodeOperationError(this.getNode(), nothingYet);
	}
	const settings = JSON.stringify([event, run.key]);
	const activation = activationOf(this);
	const freshActivation = activation !== undefined && state.activation !== activation;
	if (state.settings !== settings || !run.started(state) || freshActivation) {
		reset(state, settings);
		if (activation !== undefined) state.activation = activation;
		await run.start(state, now);
		return null;
	}
	return await run.poll(state, now);
}

/**
 * n8n creates one poll context per activation, and says why: `activate` (or
 * `create`) when a user turns the workflow on, `init` at n8n's start,
 * `update` when a new version of an active workflow is saved or published,
 * `leadershipChange` when another main takes over. A user's activation starts
 * afresh, as the first activation does: its first poll only notes where
 * things stand, so nothing that happened while the workflow was off starts
 * it (the webhook trigger does the same). A start, an update or a leader
 * change goes on from the saved position: nothing is lost. The state records
 * the activation it belongs to (a token of the context), so a first poll
 * whose notes n8n did not keep notes again instead of emitting old events.
 */
const activations = new WeakMap<object, string>();

function activationOf(ctx: IPollFunctions): string | undefined {
	const mode = ctx.getActivationMode?.();
	if (mode !== 'activate' && mode !== 'create') return undefined;
	let token = activations.get(ctx);
	if (token === undefined) {
		token = newProcessId();
		activations.set(ctx, token);
	}
	return token;
}

function reset(state: PollState, settings: string) {
	for (const [, event] of EVENTS) delete state[event.stateKey];
	state.settings = settings;
}
