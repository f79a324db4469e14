import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, mayHaveBeenCarriedOut, unwrap } from '../transport';
import { getClock } from '../transport/clock';

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
 */
export interface CreateOnceOptions {
	path: string;
	body: IDataObject;
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

export async function createOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: CreateOnceOptions,
): Promise<IDataObject> {
	const started = getClock().now();
	const shape = options.shape ?? unwrap;
	const send = async () =>
		shape(
			await apiRequest.call(ctx, 'POST', options.path, {
				body: options.body,
				itemIndex,
				checkBeforeRetry: `look for the ${options.noun} in the list`,
			}),
		);
	const first = await send().then(
		(record) => ({ record, error: undefined }),
		(error: unknown) => ({ record: undefined, error }),
	);
	if (first.record) return first.record;
	if (!mayHaveBeenCarriedOut(first.error)) return await Promise.reject(first.error);
	const found = (await options.candidates()).filter((candidate) => {
		if (!options.matches(candidate)) return false;
		const at = createdAt(candidate);
		return at === undefined || at >= started - ZONE_SLACK_MS;
	});
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
