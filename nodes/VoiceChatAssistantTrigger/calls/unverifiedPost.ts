import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { listedCall } from '../../VoiceChatAssistant/transport/recording';
import { asId } from '../core/payload';

/** At most this many watched assistants are asked for a post that names none of them. */
export const MAX_ASKED_ASSISTANTS = 5;

export type Confirmation = { assistantId: number } | { refused: string };

/**
 * A post of a call without its assistant's secret (Verify Secret off, behind a proxy that drops
 * query strings; or anyone who knows the URL): it starts the workflow only when the service lists
 * that call for a watched assistant, with the posted customer number, within a day of the posted
 * time (the call list, filtered as the recording's lookup is). So a made-up post starts nothing.
 * The assistant asked is the one the post names, else each watched one (at most
 * MAX_ASKED_ASSISTANTS). A post the list does not show, or that cannot be checked, is refused
 * "Unauthorized": the service records that answer, so the heartbeat's catch-up starts a genuine
 * call later from the list (the service does not post it again).
 */
export async function confirmUnverified(
	ctx: IWebhookFunctions,
	payload: IDataObject,
	named: unknown,
	watched: number[],
): Promise<Confirmation> {
	const callId = asId(payload.id ?? payload.call_id);
	if (typeof callId !== 'number') {
		return { refused: 'Unauthorized: the post names no call ("id")' };
	}
	const namedId = asId(named ?? payload.assistant_id);
	const asked =
		typeof namedId === 'number'
			? watched.filter((id) => id === namedId)
			: watched.slice(0, MAX_ASKED_ASSISTANTS);
	for (const assistantId of asked) {
		let call: IDataObject | undefined;
		try {
			call = await listedCall(ctx, {
				assistantId,
				callId,
				customerPhone: payload.customer_phone,
				when: payload.created_at ?? payload.finished_at,
			});
		} catch (error) {
			ctx.logger.warn(
				`Voice Chat Assistant Trigger: a post of call ${callId} without the assistant's secret could not be checked at the service (${(error as Error).message.split('\n')[0]}); it is refused, and the catch-up starts the call later if the service lists it`,
			);
			return { refused: 'Unauthorized: the call could not be checked at the service' };
		}
		if (call) return { assistantId };
	}
	ctx.logger.warn(
		`Voice Chat Assistant Trigger: a post of call ${callId} without the assistant's secret names no call the service lists for the watched assistant(s) ${asked.join(', ') || '(none)'}; it started nothing`,
	);
	return {
		refused: `Unauthorized: the service lists no call ${callId} of the watched assistant(s) with this customer number`,
	};
}
