import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, deepCopy } from 'n8n-workflow';

import {
	CALL_TYPES,
	CALL_TYPE_OPTIONS,
	CONVERSATION_TYPES,
	CONVERSATION_TYPE_OPTIONS,
	FINAL_CALL_STATUS_OPTIONS,
	assistantLocator,
	campaignLocator,
	knowledgebaseLocator,
} from '../VoiceChatAssistant/descriptions';
import {
	searchAssistants,
	searchCampaigns,
	searchKnowledgebases,
} from '../VoiceChatAssistant/methods/listSearch';
import { whenCredentialChosen } from '../VoiceChatAssistant/methods/credentialGuard';
import { isOneOf, locatorValue, parseId } from '../VoiceChatAssistant/shared/ids';
import { getClock } from '../VoiceChatAssistant/transport/clock';
import { downloadRecording } from '../VoiceChatAssistant/transport/recording';
import type { CallWalk } from './calls';
import { isFinal, pollCalls, startCallWalk } from './calls';
import type { ConversationWalk } from './conversations';
import {
	pollEndedConversations,
	pollNewConversations,
	startConversationWalk,
	withMessages,
} from './conversations';
import type { DocumentStatuses } from './documents';
import { documentStatuses, isProcessed, pollDocuments, readDocuments } from './documents';
import { readNewest } from './pages';

const CALL_ENDED = 'callEnded';
const NEW_CONVERSATION = 'newConversation';
const CONVERSATION_ENDED = 'conversationEnded';
const DOCUMENT_PROCESSED = 'documentProcessed';

/** What the node keeps between polls (n8n's static data of the node). */
interface PollState {
	/** The settings the state belongs to: changing them starts afresh. */
	settings?: string;
	calls?: { walk: CallWalk };
	conversations?: ConversationWalk;
	documents?: DocumentStatuses;
}

/** The text of a resource locator's value (or of a plain value), trimmed. */
function locatorText(value: unknown): string {
	return String(locatorValue(value) ?? '').trim();
}

function positiveId(ctx: IPollFunctions, label: string, value: string): number {
	const id = parseId(value);
	if (id === undefined)
		throw new NodeOperationError(ctx.getNode(), `${label} must be a numeric ID, got "${value}"`);
	return id;
}

/** A type filter: one of `allowed`, refused before any request. */
function checkType(ctx: IPollFunctions, value: unknown, allowed: string[]) {
	if (!isOneOf(value, allowed))
		throw new NodeOperationError(
			ctx.getNode(),
			`Type must be one of ${allowed.join(', ')}, got "${String(value)}"`,
		);
}

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
			'={{ {"callEnded": "Call ended", "conversationEnded": "Chat ended", "documentProcessed": "Document processed", "newConversation": "New chat"}[$parameter["event"]] }}',
		description:
			'Starts the workflow when calls or chats of voice assistants end, by asking the service at intervals: no public URL needed (Famulor)',
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
						name: 'Call Ended',
						value: CALL_ENDED,
						action: 'On call ended',
						description:
							'A call reached a final status (completed, ended, busy, no answer, failed, ...); one item per call with transcript and variables',
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
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						default: 'outbound',
						description: 'Only calls of this type',
						options: CALL_TYPE_OPTIONS,
					},
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
		const state = this.getWorkflowStaticData('node') as PollState;
		const result = await pollOnce.call(this, state);
		// n8n notices changes of the node's static data at its top level only (nested objects
		// created after loading are not watched): every part is written back as a new object
		for (const key of Object.keys(state) as Array<keyof PollState>) {
			if (typeof state[key] === 'object') (state as IDataObject)[key] = deepCopy(state[key]);
		}
		return result;
	}
}

async function pollOnce(
	this: IPollFunctions,
	state: PollState,
): Promise<INodeExecutionData[][] | null> {
	const event = this.getNodeParameter('event') as string;
	const manual = this.getMode() === 'manual';
	const now = getClock().now();

	if (event === DOCUMENT_PROCESSED) {
		const kb = positiveId(
			this,
			'Knowledgebase',
			locatorText(this.getNodeParameter('knowledgebaseId')),
		);
		if (manual) {
			const newest = (await readDocuments(this, kb)).filter(isProcessed).pop();
			return newest ? [this.helpers.returnJsonArray([newest])] : noTestEvent(this, event);
		}
		const settings = JSON.stringify([event, kb]);
		if (state.settings !== settings || !state.documents) {
			reset(state, settings);
			state.documents = documentStatuses(await readDocuments(this, kb));
			return null;
		}
		const { processed, statuses } = await pollDocuments(this, kb, state.documents);
		state.documents = statuses;
		return processed.length ? [this.helpers.returnJsonArray(processed)] : null;
	}

	const assistant = locatorText(this.getNodeParameter('assistantId', ''));
	const assistantId = assistant ? positiveId(this, 'Assistant', assistant) : undefined;

	if (event === CALL_ENDED) {
		const filters = this.getNodeParameter('callFilters', {}) as IDataObject;
		const qs: IDataObject = {};
		if (assistantId !== undefined) qs.assistant_id = assistantId;
		const campaign = locatorText(filters.campaignId);
		if (campaign) qs.campaign_id = positiveId(this, 'Campaign', campaign);
		if (filters.type) {
			checkType(this, filters.type, CALL_TYPES);
			qs.type = filters.type;
		}
		const statuses = (filters.statuses as string[] | undefined) ?? [];
		const wanted = (call: IDataObject) =>
			statuses.length === 0 || statuses.includes(String(call.status));
		const output = async (calls: IDataObject[]): Promise<INodeExecutionData[][]> => {
			const items: INodeExecutionData[] = [];
			for (const call of calls) {
				const item: INodeExecutionData = { json: call };
				if (filters.downloadRecording === true && typeof call.recording_url === 'string') {
					item.binary = { data: await downloadRecording(this, call.recording_url, call.id) };
				}
				items.push(item);
			}
			return [items];
		};
		if (manual) {
			const page = await readNewest(this, '/api/user/calls', qs, () => true);
			const newest = page.find((call) => isFinal(call) && wanted(call));
			return newest ? await output([newest]) : noTestEvent(this, event);
		}
		const settings = JSON.stringify([event, qs]);
		if (state.settings !== settings || !state.calls?.walk) {
			reset(state, settings);
			state.calls = { walk: await startCallWalk(this, qs, now) };
			return null;
		}
		const ended = (await pollCalls(this, qs, state.calls.walk, now)).filter(wanted);
		return ended.length ? await output(ended) : null;
	}

	const filters = this.getNodeParameter('conversationFilters', {}) as IDataObject;
	const qs: IDataObject = {};
	if (assistantId !== undefined) qs.assistant_id = assistantId;
	if (filters.type) {
		checkType(this, filters.type, CONVERSATION_TYPES);
		qs.type = filters.type;
	}
	if (manual) {
		const [newest] = await readNewest(this, '/api/user/conversations', qs, () => true);
		if (!newest) return noTestEvent(this, event);
		const item = event === CONVERSATION_ENDED ? await withMessages(this, newest) : newest;
		return [this.helpers.returnJsonArray([item])];
	}
	const settings = JSON.stringify([event, qs]);
	if (state.settings !== settings || !state.conversations) {
		reset(state, settings);
		state.conversations = await startConversationWalk(this, qs);
		return null;
	}
	const found =
		event === NEW_CONVERSATION
			? await pollNewConversations(this, qs, state.conversations)
			: await pollEndedConversations(
					this,
					qs,
					state.conversations,
					now,
					Number(filters.inactivityMinutes ?? 30) * 60_000,
				);
	return found.length ? [this.helpers.returnJsonArray(found)] : null;
}

function reset(state: PollState, settings: string) {
	delete state.calls;
	delete state.conversations;
	delete state.documents;
	state.settings = settings;
}

function noTestEvent(ctx: IPollFunctions, event: string): never {
	const what: Record<string, string> = {
		[CALL_ENDED]:
			'No ended call matches the settings yet: make or receive a call, then fetch again',
		[NEW_CONVERSATION]: 'No chat matches the settings yet: start one, then fetch again',
		[CONVERSATION_ENDED]: 'No chat matches the settings yet: start one, then fetch again',
		[DOCUMENT_PROCESSED]:
			'No processed document in this knowledgebase yet: add one, then fetch again',
	};
	throw new NodeOperationError(ctx.getNode(), what[event] ?? 'No event found yet');
}
