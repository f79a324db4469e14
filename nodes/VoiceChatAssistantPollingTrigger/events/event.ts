import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isOneOf, locatorValue, parseId } from '../../VoiceChatAssistant/shared/ids';
import type { CallWalk } from '../calls';
import type { ConversationWalk } from '../conversations';
import type { DocumentStatuses } from '../documents';
import type { BalanceWatch, CampaignStatuses } from '../watches';
import type { LeadSnapshot } from './leadScan';

/** What the node keeps between polls (n8n's static data of the node). */
export interface PollState {
	/** The settings the state belongs to: changing them starts afresh. */
	settings?: string;
	/** The user's activation the state belongs to (a new one starts afresh). */
	activation?: string;
	calls?: { walk: CallWalk };
	conversations?: ConversationWalk;
	documents?: DocumentStatuses;
	leads?: LeadSnapshot;
	campaigns?: CampaignStatuses;
	balance?: BalanceWatch;
}

/**
 * One event of the trigger, for one poll: `read` checks the node's settings
 * (before any request) and answers what the poll does with them.
 */
export interface PollEvent {
	/** Its entry in the Event picker (its value is its key in POLL_EVENTS, events/index.ts). */
	option: { name: string; action: string; description: string };
	/** The node's subtitle while it is chosen. */
	subtitle: string;
	/** Where it keeps what it needs between polls (cleared when the settings change). */
	stateKey: Exclude<keyof PollState, 'settings' | 'activation'>;
	/** Its own fields, shown for it; fields several events share are in fields.ts. */
	fields?: INodeProperties[];
	read(ctx: IPollFunctions): EventRun;
}

export interface EventRun {
	/** The settings the state belongs to (with the event's name): a change starts afresh. */
	key: unknown;
	/** Why a manual run ("Fetch Test Event") found nothing. */
	nothingYet: string;
	/** A manual run: the newest matching item, or undefined. */
	test(): Promise<INodeExecutionData[][] | undefined>;
	/** Whether the state holds what `poll` needs. */
	started(state: PollState): boolean;
	/** The first poll: notes where things stand in the state, emits nothing. */
	start(state: PollState, now: number): Promise<void>;
	/** A later poll: what happened since the last one, or null. */
	poll(state: PollState, now: number): Promise<INodeExecutionData[][] | null>;
}

/** The text of a resource locator's value (or of a plain value), trimmed. */
export function locatorText(value: unknown): string {
	return String(locatorValue(value) ?? '').trim();
}

export function positiveId(ctx: IPollFunctions, label: string, value: string): number {
	const id = parseId(value);
	if (id === undefined)
		throw new NodeOperationError(ctx.getNode(), `${label} must be a numeric ID, got "${value}"`);
	return id;
}

/** The Assistant filter of the call and chat events: its ID, or undefined for all. */
export function readAssistantId(ctx: IPollFunctions): number | undefined {
	const assistant = locatorText(ctx.getNodeParameter('assistantId', ''));
	return assistant ? positiveId(ctx, 'Assistant', assistant) : undefined;
}

/** A type filter: one of `allowed`, refused before any request. */
export function checkType(ctx: IPollFunctions, value: unknown, allowed: string[]) {
	if (!isOneOf(value, allowed))
		throw new NodeOperationError(
			ctx.getNode(),
			`Type must be one of ${allowed.join(', ')}, got "${String(value)}"`,
		);
}

/** Items of JSON objects as one output, or null when there are none. */
export function emit(ctx: IPollFunctions, found: IDataObject[]): INodeExecutionData[][] | null {
	return found.length ? [ctx.helpers.returnJsonArray(found)] : null;
}
