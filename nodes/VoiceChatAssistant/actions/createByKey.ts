import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { apiRequest, unwrap } from '../transport';
import type { RequestOutcome, RetryPolicy } from '../transport';
import { getClock } from '../transport/clock';

/**
 * A create whose body carries a natural key the service refuses twice (a
 * lead's phone number in its campaign; a SIP trunk's phone number, username
 * and address). After a lost answer it is looked up first where the caller
 * can (`lookUp`), else sent again, and a "duplicate" answer to that resend
 * proves that the earlier attempt stored the object: either way the item
 * succeeds with that object, read back and marked
 * `created_by_earlier_attempt`. Any other failure, and a duplicate answer
 * when no answer was lost (a real duplicate), is thrown as it is.
 */
export interface CreateByKeyOptions {
	path: string;
	body: IDataObject;
	/**
	 * When the create is sent again: `naturalKey` (the default) also after a
	 * 500; `safe` where a 500 of the service saved nothing.
	 */
	retry?: Extract<RetryPolicy, 'naturalKey' | 'safe'>;
	checkBeforeRetry?: string;
	/** Whether an error is the service refusing a second object with this key. */
	isDuplicate: (error: unknown) => boolean;
	/**
	 * The object the earlier attempt stored, read back, or what is known of it
	 * (`started`: epoch ms before the first attempt). May throw: the item fails.
	 */
	storedEarlier: (duplicate: NodeApiError, started: number) => Promise<IDataObject>;
	/** The output item from the service's answer (default: the record, unwrapped from `data`). */
	shape?: (answer: unknown) => IDataObject;
	/**
	 * The stored object with this key, if any: read after a lost answer before
	 * the create is sent again (transport's `lookUpAfterLostAnswer`); what it
	 * finds is output marked `created_by_earlier_attempt`.
	 */
	lookUp?: () => Promise<IDataObject | undefined>;
}

export async function createByKey(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: CreateByKeyOptions,
): Promise<IDataObject> {
	const started = getClock().now();
	const outcome: RequestOutcome = { lostAnswer: false };
	const sent = await apiRequest
		.call(ctx, 'POST', options.path, {
			body: options.body,
			itemIndex,
			retry: options.retry ?? 'naturalKey',
			outcome,
			checkBeforeRetry: options.checkBeforeRetry,
			lookUpAfterLostAnswer: options.lookUp,
		})
		.then(
			(answer) => ({ answer, error: undefined }),
			(error: unknown) => ({ answer: undefined, error }),
		);
	if (sent.error === undefined) {
		if (outcome.foundAfterLostAnswer) {
			return { ...(sent.answer as IDataObject), created_by_earlier_attempt: true };
		}
		return (options.shape ?? unwrap)(sent.answer);
	}
	// the caller names the item in its error, or handles a real duplicate
	if (!options.isDuplicate(sent.error) || !outcome.lostAnswer) {
		return await Promise.reject(sent.error);
	}
	const stored = await options.storedEarlier(sent.error as NodeApiError, started);
	return { ...stored, created_by_earlier_attempt: true };
}
