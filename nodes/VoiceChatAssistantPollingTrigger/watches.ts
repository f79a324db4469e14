/*
 * What the status events keep between polls (in PollState, events/event.ts): apart from the events,
 * so that the state's type imports no event (the events import event.ts).
 */

/** Balance Below (events/balanceBelow.ts): the balance as last polled. */
export interface BalanceWatch {
	/** Whether the balance was below the threshold at the last poll. */
	below: boolean;
	/** The balance at the last poll. */
	balance: number;
	/** When a poll first saw the balance below (ISO 8601), null while it is not. */
	since: string | null;
	/** When the poll that wrote the state ran (ms). */
	at: number;
	/** Which write of which n8n process this is. */
	stamp: string;
}

/** Campaign Status Changed (events/campaignStatusChanged.ts): the campaigns as last read. */
export interface CampaignStatuses {
	/** Each campaign's status as last read: id → status. */
	statuses: Record<string, string>;
	/** Each campaign's `updated_at` as last read: id → time. */
	updated: Record<string, string>;
	/** The n8n process that last wrote the state. */
	process: string;
}
