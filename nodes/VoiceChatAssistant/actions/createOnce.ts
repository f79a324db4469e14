import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, unwrap } from '../transport';
import type { RequestOutcome } from '../transport';
import { getClock } from '../transport/clock';

/** A JSON body, or a multipart body built with the platform's FormData. */
export type CreateBody = IDataObject | FormData;

/**
 * A create whose answer may get lost. A create is not sent again blindly
 * (that could make two objects): when its answer is lost (a 500, 502 or
 * 504, a broken connection, a timeout), the object is looked up by its
 * natural key among the objects created since the attempt. One match: that
 * is the created object. None: the create is sent once more. Several: the
 * item fails, listing them.
 *
 * "Since the attempt": the service writes `created_at` in its own time zone,
 * which the client does not know, so an object counts when its `created_at`,
 * read as UTC, is at most 14 hours (the widest time zone offset) before the
 * attempt. Objects without `created_at` count by their key alone.
 *
 * When the lookup itself fails, nothing is known: the item fails with the
 * create's own error (which says what to check), the lookup's failure added.
 */
export interface CreateOnceOptions {
	path: string;
	/**
	 * The body, or a function that builds it: called once per attempt, so a
	 * body that is read while it is sent (a multipart upload) is built anew.
	 */
	body: CreateBody | (() => CreateBody);
	/** What the object is called in messages, e.g. "knowledgebase". */
	noun: string;
	/** The objects that may be the one created: read after a lost answer. */
	candidates: () => Promise<IDataObject[]>;
	/** Whether a candidate carries the natural key of this create. */
	matches: (candidate: IDataObject) => boolean;
	/** The output item from the service's answer (default: the record, unwrapped from `data`). */
	shape?: (answer: unknown) => IDataObject;
}

const ZONE_SLACK_MS = 14 * 60 * 60_000 + 60_000;

function createdAt(candidate: IDataObject): number | undefined {
	const text = candidate.created_at;
	if (typeof text !== 'string' || !text) return undefined;
	const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)
		? `${text.replace(' ', 'T')}Z`
		: text;
	const time = Date.parse(iso);
	return Number.isNaN(time) ? undefined : time;
}

/**
 * Whether an object may have been created by an attempt started at `started`
 * (epoch ms): its `created_at`, read as UTC, is at most 14 hours before, or it
 * has none.
 */
export function createdSince(candidate: IDataObject, started: number): boolean {
	const at = createdAt(candidate);
	return at === undefined || at >= started - ZONE_SLACK_MS;
}

export async function createOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: CreateOnceOptions,
): Promise<IDataObject> {
	const started = getClock().now();
	const shape = options.shape ?? unwrap;
	const outcome: RequestOutcome = { lostAnswer: false };
	const send = async () =>
		shape(
			await apiRequest.call(ctx, 'POST', options.path, {
				body: typeof options.body === 'function' ? options.body() : options.body,
				itemIndex,
				outcome,
				checkBeforeRetry: `look for the ${options.noun} in the list`,
			}),
		);
	const first = await send().then(
		(record) => ({ record, error: undefined }),
		(error: unknown) => ({ record: undefined, error }),
	);
	if (first.record) return first.record;
	if (!outcome.lostAnswer) return await Promise.reject(first.error);
	const candidates = await options.candidates().then(
		(list) => ({ list, error: undefined }),
		(error: unknown) => ({ list: [] as IDataObject[], error }),
	);
	if (candidates.error !== undefined) {
		// nothing is known: the create's own error says what to check
		const failure = first.error;
		if (failure instanceof NodeApiError || failure instanceof NodeOperationError) {
			const why =
				candidates.error instanceof Error ? candidates.error.message : String(candidates.error);
			failure.description = [
				failure.description,
				`Looking for the ${options.noun} afterwards failed too (${why}).`,
			]
				.filter(Boolean)
				.join(' ');
		}
		return await Promise.reject(failure);
	}
	const found = candidates.list.filter(
		(candidate) => options.matches(candidate) && createdSince(candidate, started),
	);
	if (found.length === 1) return { ...found[0], created_by_earlier_attempt: true };
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
	// nothing was stored: the one further attempt
	return await send();
}
