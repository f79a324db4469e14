import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, deepCopy } from 'n8n-workflow';

import {
	CONVERSATION_TYPE_OPTIONS,
	FINAL_CALL_STATUS_OPTIONS,
	assistantLocator,
	callTypeFilter,
	campaignLocator,
	knowledgebaseLocator,
} from '../VoiceChatAssistant/descriptions';
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
import { BALANCE_BELOW } from './events/balanceBelow';
import { CALL_ENDED } from './events/callEnded';
import { CAMPAIGN_STATUS_CHANGED } from './events/campaignStatusChanged';
import { CONVERSATION_ENDED } from './events/conversationEnded';
import { DOCUMENT_PROCESSED } from './events/documentProcessed';
import { LEAD_STATUS_CHANGED, LEAD_STATUS_OPTIONS } from './events/leadStatusChanged';
import { NEW_CONVERSATION } from './events/newConversation';
import { newProcessId } from './events/process';
import { board } from './singleFlight';

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
		subtitle:
			'={{ {"balanceBelow": "Balance below", "callEnded": "Call ended", "campaignStatusChanged": "Campaign status changed", "conversationEnded": "Chat ended", "documentProcessed": "Document processed", "leadStatusChanged": "Lead status changed", "newConversation": "New chat"}[$parameter["event"]] }}',
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
				options: [
					{
						name: 'Balance Below',
						value: BALANCE_BELOW,
						action: 'On balance below',
						description:
							"The account's balance fell below the Threshold; one item per crossing, again after a top-up back to it or above. One request per poll.",
					},
					{
						name: 'Call Ended',
						value: CALL_ENDED,
						action: 'On call ended',
						description:
							'A call reached a final status (completed, ended, busy, no answer, failed, ...); one item per call with transcript and variables',
					},
					{
						name: 'Campaign Status Changed',
						value: CAMPAIGN_STATUS_CHANGED,
						action: 'On campaign status changed',
						description:
							'A campaign started, stopped or completed (ran out of leads); one item per change. One request per poll.',
					},
					{
						name: 'Conversation Ended',
						value: CONVERSATION_ENDED,
						action: 'On conversation ended (chat)',
						description:
							'A chat (widget, WhatsApp, API, test) had no new message for the inactivity time; one item per chat with its messages',
					},
					{
						name: 'Document Processed',
						value: DOCUMENT_PROCESSED,
						action: 'On document processed',
						description: 'A document of a knowledgebase finished processing (active or failed)',
					},
					{
						name: 'Lead Status Changed',
						value: LEAD_STATUS_CHANGED,
						action: 'On lead status changed',
						description:
							'A lead of a campaign moved to one of the chosen statuses (e.g. completed); one item per change with the lead, previous_status and status. One request per 100 leads, at most 10 per poll.',
					},
					{
						name: 'New Conversation',
						value: NEW_CONVERSATION,
						action: 'On new conversation (chat)',
						description: 'A chat with an assistant started',
					},
				],
			},
			{
				...assistantLocator,
				displayName: 'Assistant',
				required: false,
				description:
					'Only calls or chats of this assistant (leave empty for all assistants of the account)',
				displayOptions: { show: { event: [CALL_ENDED, NEW_CONVERSATION, CONVERSATION_ENDED] } },
			},
			{
				...knowledgebaseLocator,
				displayOptions: { show: { event: [DOCUMENT_PROCESSED] } },
			},
			{
				...campaignLocator,
				required: false,
				description:
					'Only leads or changes of this campaign (leave empty for all campaigns of the account)',
				displayOptions: { show: { event: [LEAD_STATUS_CHANGED, CAMPAIGN_STATUS_CHANGED] } },
			},
			{
				displayName: 'Threshold (USD)',
				name: 'balanceThreshold',
				type: 'number',
				required: true,
				default: 10,
				typeOptions: { numberPrecision: 2 },
				description:
					'Emit an item when the balance falls below this amount; it is emitted once, and again only after the balance was back at or above it (a top-up)',
				displayOptions: { show: { event: [BALANCE_BELOW] } },
			},
			{
				displayName: 'Statuses',
				name: 'leadStatuses',
				type: 'multiOptions',
				default: ['completed', 'reached-max-retries', 'blacklisted'],
				description:
					'Emit a lead when it moves to one of these statuses (leave empty for every change). The trigger watches up to 200,000 leads; a campaign of N leads is read in N/1000 polls (10 requests of 100 leads each), so a change can take that many polls to show.',
				options: LEAD_STATUS_OPTIONS,
				displayOptions: { show: { event: [LEAD_STATUS_CHANGED] } },
			},
			{
				displayName: 'Changes',
				name: 'campaignChanges',
				type: 'multiOptions',
				required: true,
				default: ['started', 'stopped', 'completed'],
				description: 'Which changes of a campaign to emit',
				options: [
					{ name: 'Started', value: 'started', description: 'The campaign is now in progress' },
					{ name: 'Stopped', value: 'stopped', description: 'The campaign was stopped or paused' },
					{
						name: 'Completed',
						value: 'completed',
						description: 'The campaign completed (it ran out of leads)',
					},
				],
				displayOptions: { show: { event: [CAMPAIGN_STATUS_CHANGED] } },
			},
			{
				displayName: 'Filters',
				name: 'callFilters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				displayOptions: { show: { event: [CALL_ENDED] } },
				options: [
					{
						...campaignLocator,
						required: false,
						description: 'Only calls of this campaign',
					},
					{
						displayName: 'Download Recording',
						name: 'downloadRecording',
						type: 'boolean',
						default: false,
						description:
							'Whether to download each call recording (when the call has one) into the binary property "data" of its item',
					},
					{
						displayName: 'Statuses',
						name: 'statuses',
						type: 'multiOptions',
						default: [],
						description: 'Only calls that ended with one of these statuses (default: any)',
						options: FINAL_CALL_STATUS_OPTIONS,
					},
					callTypeFilter,
				],
			},
			{
				displayName: 'Filters',
				name: 'conversationFilters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				displayOptions: { show: { event: [NEW_CONVERSATION, CONVERSATION_ENDED] } },
				options: [
					{
						displayName: 'Inactivity Minutes',
						name: 'inactivityMinutes',
						type: 'number',
						displayOptions: { show: { '/event': [CONVERSATION_ENDED] } },
						typeOptions: { minValue: 1, maxValue: 1440 },
						default: 30,
						description:
							"Minutes without a new message after which a chat counts as ended (use the assistant's Conversation Inactivity Timeout, default 30). Only for Conversation Ended.",
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						default: 'widget',
						description: 'Only chats of this type',
						options: CONVERSATION_TYPE_OPTIONS,
					},
				],
			},
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
	delete state.calls;
	delete state.conversations;
	delete state.documents;
	delete state.leads;
	delete state.campaigns;
	delete state.balance;
	state.settings = settings;
}
