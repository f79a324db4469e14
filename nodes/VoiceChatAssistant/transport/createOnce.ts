import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { unwrap } from './answers';
import { getClock } from './clock';
import type { InFlightSlots } from './concurrency';
import { sendRequest } from './request';
import type { Sent } from './request';
import { serviceTime } from './serviceTime';

/**
 * Exactly once: a create that is carried out once although its response may
 * not arrive (a 500, 502 or 504, a broken connection, a timeout: an unknown
 * outcome). The operation names its policy:
 *
 * - `findCreated`: the create is not sent again blindly (that could make two
 *   objects). After an unknown outcome the object is looked up among the
 *   `candidates` by its natural key (`matches`), created since the attempt.
 *   One match: that is the created object. None: the create is sent once more.
 *   Several: the item fails, listing them. A failed look-up: nothing is known,
 *   the item fails with the create's own error (which says what to check).
 * - `naturalKey`: the body carries a key the service refuses twice (a lead's
 *   phone number in its campaign; a SIP trunk's phone number, username and
 *   address). After an unknown outcome it is looked up first where the
 *   operation can (`lookUp`): the object the attempt stored is the result; an
 *   object with the key that the attempt cannot have stored (older, or with
 *   other data) means the attempt was refused, and `lookUp`'s error is thrown
 *   without sending again; nothing stored: sent again. A "duplicate" response to
 *   that resend says that an object with the key is stored now: `storedEarlier`
 *   reads it back and returns it if the attempt can have stored it, or throws
 *   (the duplicate, when it was there before). Any other failure, and a
 *   duplicate response without an unknown outcome (a real duplicate), is
 *   thrown as it is.
 *
 * Either way an object created by an earlier attempt is output marked
 * `created_by_earlier_attempt`.
 */
export type CreatePolicy =
	| {
			kind: 'findCreated';
			/** The objects that may be the one created: read after an unknown outcome. */
			candidates: () => Promise<IDataObject[]>;
			/** Whether a candidate carries the natural key of this create. */
			matches: (candidate: IDataObject) => boolean;
	  }
	| {
			kind: 'naturalKey';
			/** Sent again after a 500 too (default); false where a 500 of the service saved nothing. */
			resendAfterServerError?: boolean;
			/** Whether an error is the service refusing a second object with this key. */
			isDuplicate: (error: unknown) => boolean;
			/** The object the earlier attempt stored, read back, or what is known of it (`started`: epoch ms). May throw. */
			storedEarlier: (duplicate: NodeApiError, started: number) => Promise<IDataObject>;
			/**
			 * Read after an unknown outcome before the create is sent again (`started`: epoch ms, when the
			 * create began): the object the attempt stored (`own`), the error to throw when the key is
			 * taken by an object the attempt cannot have stored (`taken`), or undefined when none is stored.
			 */
			lookUp?: (started: number) => Promise<LookedUp | undefined>;
	  };

/** What a look-up after an unknown outcome found: the attempt's own object, or the key taken before. */
export type LookedUp = { own: IDataObject } | { taken: Error };

/** A JSON body, or a multipart body built with the platform's FormData. */
export type CreateBody = IDataObject | FormData;

export interface CreateOnceOptions {
	path: string;
	/** The body, or a function that builds it anew for each send (a multipart upload is read while sent). */
	body: CreateBody | (() => CreateBody);
	/** What the object is called in messages, e.g. "knowledgebase". */
	noun: string;
	/** What to check before running the item again (default: look for the object in the list). */
	checkBeforeRetry?: string;
	/** The output item from the service's response (default: the record, unwrapped from `data`). */
	shape?: (response: unknown) => IDataObject;
	/** The in-flight slots of the node run (see ApiRequestOptions). */
	slots?: InFlightSlots;
	policy: CreatePolicy;
}

/**
 * How far the service's clock and n8n's may differ: an object created up to
 * this long before the attempt was sent can still be the attempt's.
 */
export const CLOCK_MARGIN_MS = 60_000;

/**
 * When an object was created, as epoch ms, only where its `created_at` says
 * which zone it is in (`...Z`, `...+01:00`): a time without a zone (the
 * service's `YYYY-MM-DD HH:MM:SS`) is in a zone the client does not know.
 */
function createdAt(candidate: IDataObject): number | undefined {
	return serviceTime(candidate.created_at);
}

/**
 * Whether an object can be shown to be made by an attempt sent at `started`
 * (epoch ms): `own` when its creation time, with its zone, is no earlier than
 * the attempt (CLOCK_MARGIN_MS for the two clocks); `older` when it is
 * earlier; `unknown` when it has no creation time with a zone.
 */
export function ownership(candidate: IDataObject, started: number): 'own' | 'older' | 'unknown' {
	const at = createdAt(candidate);
	if (at === undefined) return 'unknown';
	return at >= started - CLOCK_MARGIN_MS ? 'own' : 'older';
}

/** Whether an object can be shown to be made by an attempt sent at `started` (epoch ms). */
export function createdSince(candidate: IDataObject, started: number): boolean {
	return ownership(candidate, started) === 'own';
}

/** "ID 3, created 2026-11-23 04:00:00" / "ID 5, no creation time": what the look-up found. */
function described(candidate: IDataObject): string {
	const at = candidate.created_at;
	return `ID ${String(candidate.id)}, ${typeof at === 'string' && at ? `created ${at}` : 'no creation time'}`;
}

const byEarlierAttempt = (object: IDataObject) => ({ ...object, created_by_earlier_attempt: true });

export async function createOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: CreateOnceOptions,
): Promise<IDataObject> {
	const started = getClock().now();
	const { policy } = options;
	const shape = options.shape ?? unwrap;
	// the look-up found the key taken before the attempt: it was refused, nothing is sent again
	let taken: Error | undefined;
	const lookUp =
		policy.kind === 'naturalKey' && policy.lookUp
			? async (): Promise<IDataObject | undefined> => {
					const seen = await policy.lookUp!(started);
					if (seen && 'taken' in seen) {
						taken = seen.taken;
						return {};
					}
					return seen?.own;
				}
			: undefined;
	const send = async (): Promise<Sent> =>
		await sendRequest(ctx, 'POST', options.path, {
			body: typeof options.body === 'function' ? options.body() : options.body,
			itemIndex,
			slots: options.slots,
			checkBeforeRetry: options.checkBeforeRetry ?? `look for the ${options.noun} in the list`,
			...(policy.kind === 'naturalKey'
				? {
						retry: policy.resendAfterServerError === false ? 'safe' : 'naturalKey',
						resendServerErrors: policy.resendAfterServerError !== false,
						lookUpBeforeResend: lookUp,
					}
				: {}),
		});
	const first = await send();
	if (taken) throw taken;
	if (!first.error)
		return first.found ? byEarlierAttempt(first.body as IDataObject) : shape(first.body);
	if (!first.unknownOutcome) throw first.error;

	if (policy.kind === 'naturalKey') {
		// the operation names the item in its error, or handles a real duplicate
		if (!policy.isDuplicate(first.error)) throw first.error;
		return byEarlierAttempt(await policy.storedEarlier(first.error, started));
	}

	let candidates: IDataObject[];
	try {
		candidates = await policy.candidates();
	} catch (error) {
		// nothing is known: the create's own error says what to check
		const why = error instanceof Error ? error.message : String(error);
		first.error.description = [
			first.error.description,
			`Looking for the ${options.noun} afterwards failed too (${why}).`,
		]
			.filter(Boolean)
			.join(' ');
		throw first.error;
	}
	const named = candidates.filter((candidate) => policy.matches(candidate));
	const found = named.filter((candidate) => ownership(candidate, started) === 'own');
	const unknown = named.filter((candidate) => ownership(candidate, started) === 'unknown');
	if (found.length === 1) return byEarlierAttempt(found[0]);
	if (found.length > 1) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The answer to creating the ${options.noun} was lost, and ${found.length} ${options.noun}s with that name exist (IDs ${found.map((f) => f.id).join(', ')})`,
			{
				itemIndex,
				description: `One of them may be the one this item created. Check them, delete the extra one, and run the item again if needed.`,
			},
		);
	}
	if (unknown.length > 0) {
		// one of them may be this attempt's, or none: neither adopted nor sent again
		throw new NodeOperationError(
			ctx.getNode(),
			`The answer to creating the ${options.noun} was lost, and the look-up found ${unknown.length === 1 ? `one ${options.noun}` : `${unknown.length} ${options.noun}s`} with that name whose creation time cannot show whether this item made it (${unknown.map(described).join('; ')})`,
			{
				itemIndex,
				description: `The ${options.noun} was not created again, so as not to make a second one. Check whether it is the one this item created (it would be new); if it is not, run the item again.`,
			},
		);
	}
	// nothing of this attempt is stored (same-name objects, if any, are older): the one further attempt
	const again = await send();
	if (again.error) throw again.error;
	return shape(again.body);
}
