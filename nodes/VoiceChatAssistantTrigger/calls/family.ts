import type { EventFamily } from '../core/family';
import { CALL_AND_CHAT_EVENTS } from '../core/events';
import { callDelivery } from './delivery';
import { startHeartbeat } from './heartbeat';
import { checkExists, create, remove } from './lifecycle';
import { readRegistration } from './world';

/** The calls and chats that end: a webhook URL registered per assistant (the service's webhooks). */
export const callFamily: EventFamily = {
	events: CALL_AND_CHAT_EVENTS,
	registered: (staticData) => readRegistration(staticData) !== undefined,
	checkExists,
	create,
	remove,
	webhook: callDelivery,
	heartbeat: startHeartbeat,
};
