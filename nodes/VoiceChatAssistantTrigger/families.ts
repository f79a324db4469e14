import type { IHookFunctions } from 'n8n-workflow';

import { callFamily } from './calls/family';
import { INBOUND } from './core/events';
import type { EventFamily } from './core/family';
import { toolFamily } from './midCallTool/family';
import { whatsappFamily } from './whatsapp/family';

/**
 * The webhook trigger's event families, in the order a removal takes them back. Adding an event:
 * its value in a family's `events` (and its fields, shown for it); adding a family: one entry here.
 */
export const FAMILIES: readonly EventFamily[] = [toolFamily, callFamily, whatsappFamily];

/** The family of the chosen event. */
export function familyOf(ctx: Pick<IHookFunctions, 'getNodeParameter'>): EventFamily {
	const event = ctx.getNodeParameter('event', INBOUND) as string;
	return FAMILIES.find((family) => family.events.includes(event)) ?? callFamily;
}
