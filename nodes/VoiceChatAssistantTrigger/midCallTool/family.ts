import type { EventFamily } from '../core/family';
import { MID_CALL_TOOL } from '../core/events';
import { startHeartbeat } from '../calls/heartbeat';
import { readToolRegistrations } from './midCallTool';
import { toolCheckExists, toolCreate, toolRemove } from './toolLifecycle';
import { toolRequest } from './toolRequest';

/** The mid-call tool: a tool of the service registered on the assistants, answered by the workflow. */
export const toolFamily: EventFamily = {
	events: [MID_CALL_TOOL],
	registered: (staticData) => readToolRegistrations(staticData).length > 0,
	checkExists: toolCheckExists,
	create: toolCreate,
	remove: toolRemove,
	webhook: toolRequest,
	heartbeat: startHeartbeat,
};
