import { CALL_ENDED, callEnded } from './callEnded';
import { CONVERSATION_ENDED, conversationEnded } from './conversationEnded';
import { DOCUMENT_PROCESSED, documentProcessed } from './documentProcessed';
import type { PollEvent } from './event';
import { NEW_CONVERSATION, newConversation } from './newConversation';

export { CALL_ENDED, CONVERSATION_ENDED, DOCUMENT_PROCESSED, NEW_CONVERSATION };
export type { EventRun, PollEvent, PollState } from './event';

/** The events of the trigger by the value of its Event parameter. */
export const POLL_EVENTS: Record<string, PollEvent> = {
	[CALL_ENDED]: callEnded,
	[CONVERSATION_ENDED]: conversationEnded,
	[DOCUMENT_PROCESSED]: documentProcessed,
	[NEW_CONVERSATION]: newConversation,
};
