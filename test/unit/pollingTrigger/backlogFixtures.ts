/**
 * What the polling trigger's outage tests (backlogCalls, backlogChats)
 * share: their describe block with its clock, the node, a poll's context, the
 * service's newest-first list served by nock with every request recorded, the
 * calls of the Call Ended tests and polling until a poll emits nothing.
 */
import nock from 'nock';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { TEST_BASE_URL } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { poller as pollContext } from '../../helpers/pollContext';

/** The tests `title` of the polling trigger after an outage, each with a fresh fake clock (fakeClockPerTest), which `tests` gets. */
export function describeOutage(
	title: string,
	tests: (clock: ReturnType<typeof fakeClockPerTest>) => void,
) {
	describe('Polling trigger after an outage', () => {
		const clock = fakeClockPerTest();
		describe(title, () => tests(clock));
	});
}

export const node = new VoiceChatAssistantPollingTrigger();

export interface Poller {
	ctx: IPollFunctions;
	warnings: string[];
}

export const poller = (
	parameters: IDataObject,
	staticData: IDataObject,
	warnings: string[] = [],
): Poller => ({
	ctx: pollContext(parameters, staticData, { warnings }),
	warnings,
});

export type Output = Array<Array<{ json: IDataObject; binary?: IDataObject }>> | null;
export const items = (output: unknown) => (output as Output)?.[0] ?? [];

export interface Request {
	path: string;
	query: Record<string, string>;
	authorization: string | undefined;
}

/** A request's answer other than the list: an error status and its body. */
export interface Fault {
	status: number;
	body: IDataObject;
}

/**
 * Every GET of `path` answered by nock with `answer(request, index)`, the
 * request (1, 2, …) recorded first.
 */
export function recordRequests(
	path: string,
	answer: (request: Request, index: number) => [number, IDataObject],
) {
	const requests: Request[] = [];
	nock(TEST_BASE_URL)
		.persist()
		.get(path)
		.query(true)
		.reply(function (uri) {
			const url = new URL(uri, TEST_BASE_URL);
			const request: Request = {
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				authorization: this.req.headers.authorization as string | undefined,
			};
			requests.push(request);
			return answer(request, requests.length);
		});
	return requests;
}

/**
 * The service's newest-first list as SPEC describes it (Laravel's envelope:
 * total, per_page, current_page, last_page, next_page_url), served by nock
 * from `rows()`, which the test may change between requests (`onRequest`).
 * Every request is recorded.
 */
export function serveList<T extends IDataObject>(
	path: string,
	rows: () => T[],
	onRequest: (request: Request, index: number) => void | Fault = () => {},
) {
	return recordRequests(path, (request, index) => {
		const fault = onRequest(request, index);
		if (fault) return [fault.status, fault.body];
		const all = rows();
		const perPage = Number(request.query.per_page ?? 15);
		const page = Number(request.query.page ?? 1);
		const total = all.length;
		const lastPage = Math.max(1, Math.ceil(total / perPage));
		return [
			200,
			{
				current_page: page,
				data: all.slice((page - 1) * perPage, page * perPage),
				last_page: lastPage,
				next_page_url: page < lastPage ? `${TEST_BASE_URL}${path}?page=${page + 1}` : null,
				per_page: perPage,
				total,
			},
		];
	});
}

export const CALL_PARAMETERS = {
	event: 'callEnded',
	assistantId: { __rl: true, mode: 'list', value: '2' },
	callFilters: { type: 'outbound' },
};
export const call = (id: number, status = 'completed') => ({
	id,
	status,
	assistant_id: 2,
	type: 'outbound',
});

/** Calls 1..n, all ended, newest first. */
export function callList() {
	const calls: IDataObject[] = [];
	return {
		calls,
		add(count: number, status = 'completed') {
			const from = calls.length + 1;
			for (let id = from; id < from + count; id++) calls.unshift(call(id, status));
		},
	};
}

/** Polls until a poll emits nothing; returns the ids per poll and the requests per poll. */
export async function pollUntilQuiet(
	parameters: IDataObject,
	state: IDataObject,
	requests: Request[],
	warnings: string[] = [],
) {
	const emitted: number[][] = [];
	const perPoll: Request[][] = [];
	for (let round = 0; round < 50; round++) {
		const before = requests.length;
		const output = await node.poll.call(poller(parameters, state, warnings).ctx);
		perPoll.push(requests.slice(before));
		if (output === null) return { emitted, perPoll };
		emitted.push(items(output).map((item) => Number(item.json.id)));
	}
	throw new Error('the backlog did not end within 50 polls');
}

export const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);
