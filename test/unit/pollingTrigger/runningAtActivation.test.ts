/**
 * Call Ended and the calls already on their way at activation, wherever they
 * stand in the list: one behind more than 100 newer calls is found through
 * the list's status filter, watched, and emitted once when it ends; the exact
 * requests of each poll (the cost) are asserted.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { TEST_BASE_URL } from '../../helpers/context';
import { poller as pollContext } from '../../helpers/pollContext';
import { fakeClockPerTest } from '../../helpers/fakeClock';

const node = new VoiceChatAssistantPollingTrigger();

const parameters = {
	event: 'callEnded',
	assistantId: { __rl: true, mode: 'list', value: '2' },
	callFilters: { type: 'outbound' },
};
const FILTERS = { assistant_id: 2, type: 'outbound' };

const poller = (staticData: IDataObject, warnings: string[] = []) =>
	pollContext(parameters, staticData, { warnings });

const call = (id: number, status = 'completed', phone: string | null = `+1415555${1000 + id}`) => ({
	id,
	status,
	client_phone_number: phone,
	transcript: `call ${id}`,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => to - i); // newest first
const json = (output: unknown) =>
	(output as Array<Array<{ json: IDataObject }>> | null)?.[0].map((item) => item.json) ?? null;

/** The call list of `all` (newest first) as the service pages it: 100 a page, with the total. */
function list(all: object[], pageNo: number, query: IDataObject = {}) {
	const data = all.slice((pageNo - 1) * 100, pageNo * 100);
	return nock(TEST_BASE_URL)
		.get('/api/user/calls')
		.query({ ...FILTERS, ...query, per_page: 100, page: pageNo })
		.reply(200, {
			data,
			current_page: pageNo,
			per_page: 100,
			total: all.length,
			next_page_url: pageNo * 100 < all.length ? `${TEST_BASE_URL}/api/user/calls?page=2` : null,
		});
}

/** The three lists of calls on their way (one page each). */
function waiting(running: Record<string, object[]> = {}) {
	for (const status of ['in-progress', 'initiated', 'ringing'])
		list(running[status] ?? [], 1, { status });
}

describe('Call Ended: calls on their way at activation, behind more than 100 newer calls', () => {
	fakeClockPerTest();

	it('one in progress behind 100 newer calls is emitted once when it ends (looked up by its number)', async () => {
		const state: IDataObject = {};
		// call 150 is in progress; 151..250 (100 newer calls) ended before activation
		let all = [
			...range(151, 250).map((id) => call(id)),
			call(150, 'in-progress'),
			...range(1, 149).map((id) => call(id)),
		];
		list(all, 1);
		waiting({ 'in-progress': [call(150, 'in-progress')] });
		expect(await node.poll.call(poller(state))).toBeNull();
		expect(nock.isDone()).toBe(true);

		// still in progress: the three status lists and the first page (4 requests), nothing emitted
		waiting({ 'in-progress': [call(150, 'in-progress')] });
		list(all, 1);
		expect(await node.poll.call(poller(state))).toBeNull();
		expect(nock.isDone()).toBe(true);

		// it ended: gone from the status lists, looked up by its client's number, emitted once
		all = all.map((c) => (c.id === 150 ? call(150, 'completed') : c));
		waiting();
		list([call(150, 'completed')], 1, { phone_number: '+14155551150' });
		list(all, 1);
		expect(json(await node.poll.call(poller(state)))?.map((c) => c.id)).toEqual([150]);
		expect(nock.isDone()).toBe(true);

		// nothing is watched any more: one request a poll again, and call 150 never comes again
		list(all, 1);
		expect(await node.poll.call(poller(state))).toBeNull();
		expect(nock.isDone()).toBe(true);
	});

	it('without a client number it is found by a binary search over the pages, and emitted once', async () => {
		const state: IDataObject = {};
		const web = (id: number, status: string) => call(id, status, null);
		let all = [
			...range(151, 450).map((id) => call(id)),
			web(150, 'in-progress'),
			...range(1, 149).map((id) => call(id)),
		];
		list(all, 1);
		waiting({ 'in-progress': [web(150, 'in-progress')] });
		expect(await node.poll.call(poller(state))).toBeNull();

		// ended, and 50 more calls ended above it: 500 calls, 5 pages; call 150 is on page 4
		all = [
			...range(451, 500).map((id) => call(id)),
			...all.map((c) => (c.id === 150 ? web(150, 'ended') : c)),
		];
		waiting();
		list(all, 1); // the search: page 1, then the middle of pages 2..5 (page 4)
		list(all, 4);
		list(all, 1); // the walk: the new calls 451..500 all ended after activation
		const emitted = json(await node.poll.call(poller(state)))?.map((c) => c.id);
		expect(emitted).toEqual([150, ...range(451, 500).reverse()]);
		expect(nock.isDone()).toBe(true);
	});

	it('a watched call that disappeared from the list is given up with a warning', async () => {
		const state: IDataObject = {};
		const warnings: string[] = [];
		let all = [
			...range(151, 250).map((id) => call(id)),
			call(150, 'ringing', null),
			...range(1, 149).map((id) => call(id)),
		];
		list(all, 1);
		waiting({ ringing: [call(150, 'ringing', null)] });
		await node.poll.call(poller(state));

		all = all.filter((c) => c.id !== 150);
		waiting();
		list(all, 1); // the search: page 1 (250..151), page 3 (49..1), page 2 (149..50): no 150
		list(all, 3);
		list(all, 2);
		list(all, 1);
		expect(await node.poll.call(poller(state, warnings))).toBeNull();
		expect(warnings).toEqual([
			'Voice Chat Assistant Polling Trigger: call 150 is no longer listed: given up, it is not emitted',
		]);
		list(all, 1);
		expect(await node.poll.call(poller(state))).toBeNull();
		expect(nock.isDone()).toBe(true);
	});

	it('a list of one page asks for no status list: calls on their way are on that page', async () => {
		const state: IDataObject = {};
		list([call(3, 'in-progress'), call(2), call(1)], 1);
		expect(await node.poll.call(poller(state))).toBeNull();
		list([call(3, 'completed'), call(2), call(1)], 1);
		expect(json(await node.poll.call(poller(state)))?.map((c) => c.id)).toEqual([3]);
		expect(nock.isDone()).toBe(true);
	});
});
