import { pollNewConversations } from '../conversations';
import { readChatEvent } from './chat';
import type { PollEvent } from './event';

export const NEW_CONVERSATION = 'newConversation';

/** New Conversation: a chat with an assistant started. */
export const newConversation: PollEvent = {
	option: {
		name: 'New Conversation',
		action: 'On new conversation (chat)',
		description: 'A chat with an assistant started',
	},
	subtitle: 'New chat',
	stateKey: 'conversations',
	read: (ctx) =>
		readChatEvent(ctx, {
			testItem: (_ctx, newest) => newest,
			found: async (ctx, qs, walk) => await pollNewConversations(ctx, qs, walk),
		}),
};
