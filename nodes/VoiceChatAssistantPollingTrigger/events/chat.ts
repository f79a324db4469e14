import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { CONVERSATION_TYPES } from '../../VoiceChatAssistant/descriptions';
import type { ConversationWalk } from '../conversations';
import { startConversationWalk } from '../conversations';
import { readNewest } from '../pages';
import type { EventRun } from './event';
import { checkType, emit, readAssistantId } from './event';

/** What the two chat events differ in. */
export interface ChatEvent {
	/** A manual run's item made of the newest chat. */
	testItem(ctx: IPollFunctions, newest: IDataObject): Promise<IDataObject> | IDataObject;
	/** The chats to emit since the last poll. */
	found(
		ctx: IPollFunctions,
		qs: IDataObject,
		walk: ConversationWalk,
		now: number,
		filters: IDataObject,
	): Promise<IDataObject[]>;
}

/** New Conversation and Conversation Ended: the same settings, walk and test read. */
export function readChatEvent(ctx: IPollFunctions, event: ChatEvent): EventRun {
	const assistantId = readAssistantId(ctx);
	const filters = ctx.getNodeParameter('conversationFilters', {}) as IDataObject;
	const qs: IDataObject = {};
	if (assistantId !== undefined) qs.assistant_id = assistantId;
	if (filters.type) {
		checkType(ctx, filters.type, CONVERSATION_TYPES);
		qs.type = filters.type;
	}
	return {
		key: qs,
		nothingYet: 'No chat matches the settings yet: start one, then fetch again',
		async test() {
			const [newest] = await readNewest(ctx, '/api/user/conversations', qs, () => true);
			if (!newest) return undefined;
			return [ctx.helpers.returnJsonArray([await event.testItem(ctx, newest)])];
		},
		started: (state) => !!state.conversations,
		async start(state) {
			state.conversations = await startConversationWalk(ctx, qs);
		},
		async poll(state, now) {
			const walk = state.conversations as ConversationWalk;
			return emit(ctx, await event.found(ctx, qs, walk, now, filters));
		},
	};
}
