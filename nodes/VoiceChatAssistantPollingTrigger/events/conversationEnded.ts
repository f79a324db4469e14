import { pollEndedConversations, withMessages } from '../conversations';
import { readChatEvent } from './chat';
import type { PollEvent } from './event';

export const CONVERSATION_ENDED = 'conversationEnded';

/** Conversation Ended: a chat had no new message for the inactivity time; with its messages. */
export const conversationEnded: PollEvent = {
	option: {
		name: 'Conversation Ended',
		action: 'On conversation ended (chat)',
		description:
			'A chat (widget, WhatsApp, API, test) had no new message for the inactivity time; one item per chat with its messages',
	},
	subtitle: 'Chat ended',
	stateKey: 'conversations',
	read: (ctx) =>
		readChatEvent(ctx, {
			testItem: async (ctx, newest) => await withMessages(ctx, newest),
			found: async (ctx, qs, walk, now, filters) =>
				await pollEndedConversations(
					ctx,
					qs,
					walk,
					now,
					Number(filters.inactivityMinutes ?? 30) * 60_000,
				),
		}),
};
