import { BALANCE_BELOW, balanceBelow } from './balanceBelow';
import { CALL_ENDED, callEnded } from './callEnded';
import { CAMPAIGN_STATUS_CHANGED, campaignStatusChanged } from './campaignStatusChanged';
import { CONVERSATION_ENDED, conversationEnded } from './conversationEnded';
import { DOCUMENT_PROCESSED, documentProcessed } from './documentProcessed';
import type { PollEvent } from './event';
import { LEAD_STATUS_CHANGED, leadStatusChanged } from './leadStatusChanged';
import { NEW_CONVERSATION, newConversation } from './newConversation';

export type { EventRun, PollEvent, PollState } from './event';

/** The events of the trigger by the value of its Event parameter. */
export const POLL_EVENTS: Record<string, PollEvent> = {
	[BALANCE_BELOW]: balanceBelow,
	[CALL_ENDED]: callEnded,
	[CAMPAIGN_STATUS_CHANGED]: campaignStatusChanged,
	[CONVERSATION_ENDED]: conversationEnded,
	[DOCUMENT_PROCESSED]: documentProcessed,
	[LEAD_STATUS_CHANGED]: leadStatusChanged,
	[NEW_CONVERSATION]: newConversation,
};
