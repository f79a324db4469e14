/**
 * The polling trigger's Call Ended after an outage: every call that ended
 * while the workflow was off is emitted once, oldest first, over as many polls
 * as it takes, no poll above the request ceiling; a poll that fails leaves the
 * saved position as it was; a failed recording does not hold the call back;
 * what is given up is logged with its id.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { MAX_REQUESTS_PER_POLL } from '../../../nodes/VoiceChatAssistantPollingTrigger/pages';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import {
	CALL_PARAMETERS,
	describeOutage,
	call,
	callList,
	items,
	node,
	pollUntilQuiet,
	poller,
	range,
	serveList,
} from './backlogFixtures';
import type { Fault } from './backlogFixtures';

describeOutage('Call Ended', (clock) => {
	const exactCallQuery = (page: number) => ({
		assistant_id: '2',
		type: 'outbound',
		per_page: '100',
		page: String(page),
	});
	/**
	 * Call Ended (`parameters`) over calls 1..`count`, all ended, and `pending` on top, served
	 * by nock (`onRequest` may add calls or fault a request), and the first poll, which only
	 * notes where the list stands (`first`). `next()` is the next poll's output; the warnings
	 * of every poll are collected.
	 */
	async function firstPollOver(
		count: number,
		options: {
			parameters?: IDataObject;
			pending?: IDataObject[];
			onRequest?: (index: number, list: ReturnType<typeof callList>) => Fault | void;
		} = {},
	) {
		const { parameters = CALL_PARAMETERS, pending = [], onRequest } = options;
		const list = callList();
		list.add(count);
		list.calls.unshift(...pending);
		const requests = serveList(
			'/api/user/calls',
			() => list.calls,
			(_request, index) => onRequest?.(index, list),
		);
		const state: IDataObject = {};
		const warnings: string[] = [];
		const next = async () => await node.poll.call(poller(parameters, state, warnings).ctx);
		const first = await next();
		return { list, requests, state, warnings, first, next };
	}
	const ids = (output: unknown) => items(output).map((i) => i.json.id);
	const RECORDINGS = {
		...CALL_PARAMETERS,
		callFilters: { type: 'outbound', downloadRecording: true },
	};

	it('1,500 calls ended while off: two polls, each call once and oldest first, 10 requests at most, the exact pages', async () => {
		const { list, requests, state, first } = await firstPollOver(10);
		expect(first).toBeNull();
		list.add(1500);

		const { emitted, perPoll } = await pollUntilQuiet(CALL_PARAMETERS, state, requests);
		expect(emitted.flat()).toEqual(range(11, 1510));
		// the first poll finds the floor's page from the kept position (page 16: calls 10..1), then reads upward
		expect(perPoll[0].map((r) => r.query)).toEqual(
			[1, 16, 15, 14, 13, 12, 11, 10, 9, 8].map(exactCallQuery),
		);
		expect(emitted[0]).toEqual(range(11, 810));
		expect(perPoll[1].map((r) => r.query)).toEqual([1, 8, 7, 6, 5, 4, 3, 2].map(exactCallQuery));
		expect(emitted[1]).toEqual(range(811, 1510));
		// the quiet poll afterwards: one request
		expect(perPoll[2].map((r) => r.query)).toEqual([exactCallQuery(1)]);
		for (const request of requests) {
			expect(request.path).toBe('/api/user/calls');
			expect(request.authorization).toBe(`Bearer ${TEST_API_KEY}`);
		}
	});

	it('3,000 calls ended while off: each once, oldest first, no poll above the ceiling', async () => {
		const { list, requests, state } = await firstPollOver(40);
		list.add(3000);

		const { emitted, perPoll } = await pollUntilQuiet(CALL_PARAMETERS, state, requests);
		expect(emitted.flat()).toEqual(range(41, 3040));
		expect(emitted).toHaveLength(4);
		for (const poll of perPoll) expect(poll.length).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
		for (const request of requests)
			expect(Object.keys(request.query).sort()).toEqual([
				'assistant_id',
				'page',
				'per_page',
				'type',
			]);
	});

	it('calls that arrive between the reads of one poll shift the pages: nothing is skipped or emitted twice', async () => {
		let poll = 0;
		let pollStart = 0;
		// during the first backlog poll, 150 calls start and end before its third read, 30 more before its sixth
		const { list, requests, next } = await firstPollOver(5, {
			onRequest: (index, calls) => {
				const inPoll = index - pollStart;
				if (poll === 1 && (inPoll === 3 || inPoll === 6)) calls.add(inPoll === 3 ? 150 : 30);
			},
		});
		list.add(1200);

		const emitted: number[] = [];
		for (poll = 1; poll < 10; poll++) {
			pollStart = requests.length;
			const output = await next();
			expect(requests.length - pollStart).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
			if (output === null) break;
			emitted.push(...items(output).map((item) => Number(item.json.id)));
		}
		expect(emitted).toEqual(range(6, 5 + 1200 + 180));
	});

	it('a state kept without a position (older version) finds the floor by a binary search', async () => {
		const list = callList();
		list.add(2000);
		const requests = serveList('/api/user/calls', () => list.calls);
		const state: IDataObject = {
			settings: JSON.stringify(['callEnded', { assistant_id: 2, type: 'outbound' }]),
			calls: { walk: { maxId: 1000, pending: {} } },
		};
		const { emitted, perPoll } = await pollUntilQuiet(CALL_PARAMETERS, state, requests);
		expect(emitted.flat()).toEqual(range(1001, 2000));
		// pages 2..20 probed: 11 (calls 1000..901, the floor's page), 6, 9, 10; then upward from 11
		expect(perPoll[0].map((r) => r.query)).toEqual(
			[1, 11, 6, 9, 10, 10, 9, 8, 7, 6].map(exactCallQuery),
		);
		expect(emitted[0]).toEqual(range(1001, 1500));
		// from then on the position is kept: the floor's page at once
		expect(perPoll[1].map((r) => r.query)).toEqual([1, 6, 5, 4, 3, 2].map(exactCallQuery));
		expect(emitted[1]).toEqual(range(1501, 2000));
	});

	it('a poll that fails midway (500 on its third page, and on both resends) leaves the state unchanged; the next poll emits the same calls, once', async () => {
		let failNext = false;
		let pollStart = 0;
		const { list, requests, state, next } = await firstPollOver(10, {
			onRequest: (index) =>
				failNext && index - pollStart >= 3
					? { status: 500, body: { message: 'Server Error' } }
					: undefined,
		});
		list.add(500);
		const before = JSON.parse(JSON.stringify(state));

		failNext = true;
		pollStart = requests.length;
		await expect(next()).rejects.toThrow();
		// the third page, sent again twice after its 500s (a read is safe to send again)
		expect(requests.length - pollStart).toBe(5);
		expect(state).toEqual(before);

		failNext = false;
		const { emitted } = await pollUntilQuiet(CALL_PARAMETERS, state, requests);
		expect(emitted.flat()).toEqual(range(11, 510));
	});

	it('a pending call that never ends is given up after 3 hours, logged with its id; the others come through', async () => {
		const { list, requests, state, warnings, next } = await firstPollOver(3, {
			pending: [call(4, 'in-progress')],
		});
		clock.advance(60 * 60_000);
		list.calls.unshift(call(5), call(6, 'ringing'));
		list.calls.sort((a, b) => Number(b.id) - Number(a.id));
		expect(ids(await next())).toEqual([5]);
		expect(warnings).toEqual([]);
		clock.advance(2 * 60 * 60_000 + 1);
		list.calls[0] = call(6, 'completed');
		expect(ids(await next())).toEqual([6]);
		expect(warnings).toEqual([
			'Voice Chat Assistant Polling Trigger: call 4 is still not final after 3 hours: given up, it is not emitted',
		]);
		expect((state.calls as IDataObject).walk).toEqual(
			expect.objectContaining({ maxId: 6, pending: {} }),
		);
		expect(requests.length).toBe(3);
	});

	it('a pending call that is deleted from the list is given up with a warning naming it', async () => {
		const { list, state, warnings, next } = await firstPollOver(3, {
			pending: [call(4, 'ringing')],
		});
		list.calls[0] = call(5);
		expect(ids(await next())).toEqual([5]);
		expect(warnings).toEqual([
			'Voice Chat Assistant Polling Trigger: call 4 is no longer listed: given up, it is not emitted',
		]);
		expect((state.calls as IDataObject).walk).toEqual(
			expect.objectContaining({ maxId: 5, pending: {} }),
		);
	});

	it('a call with a status outside the known ones is given up with a warning naming it', async () => {
		const { list, warnings, next } = await firstPollOver(2);
		list.calls.unshift(call(4), call(3, 'voicemail-left'));
		list.calls.sort((a, b) => Number(b.id) - Number(a.id));
		expect(ids(await next())).toEqual([4]);
		expect(warnings).toEqual([
			'Voice Chat Assistant Polling Trigger: call 3 has the status "voicemail-left", which is not a call status: given up, it is not emitted',
		]);
	});

	it('a recording that cannot be downloaded: the call is emitted without it, with recording_error', async () => {
		const { list, next } = await firstPollOver(1, { parameters: RECORDINGS });
		list.calls.unshift(
			{ ...call(3), recording_url: `${TEST_BASE_URL}/recordings/3.mp3` },
			{ ...call(2), recording_url: `${TEST_BASE_URL}/recordings/2.mp3` },
		);
		const two = nock(TEST_BASE_URL).get('/recordings/2.mp3').reply(404, { message: 'Not found' });
		const three = nock(TEST_BASE_URL)
			.get('/recordings/3.mp3')
			.reply(200, Buffer.from('ID3-audio'), { 'content-type': 'audio/mpeg' });
		const emitted = items(await next());
		expect(emitted.map((i) => i.json.id)).toEqual([2, 3]);
		expect(emitted[0].binary).toBeUndefined();
		expect(emitted[0].json.recording_error).toEqual(expect.stringContaining('2'));
		expect(emitted[1].binary).toEqual({
			data: expect.objectContaining({ mimeType: 'audio/mpeg' }),
		});
		expect(emitted[1].json.recording_error).toBeUndefined();
		expect(two.isDone() && three.isDone()).toBe(true);
		expect(JSON.stringify(emitted)).not.toContain(TEST_API_KEY);
		// the position moved past both: the next poll emits nothing
		expect(await next()).toBeNull();
	});

	it('downloads at most 100 recordings a poll: the calls past them come with the next poll, in order', async () => {
		const { list, requests, next } = await firstPollOver(1, { parameters: RECORDINGS });
		list.add(150);
		for (const c of list.calls) c.recording_url = `${TEST_BASE_URL}/recordings/${String(c.id)}.mp3`;
		const downloads: string[] = [];
		nock(TEST_BASE_URL)
			.persist()
			.get(/^\/recordings\/\d+\.mp3$/)
			.reply(function (uri) {
				downloads.push(uri);
				return [200, Buffer.from('ID3'), { 'content-type': 'audio/mpeg' }];
			});
		const first = items(await next());
		expect(first.map((i) => i.json.id)).toEqual(range(2, 101));
		expect(downloads).toEqual(range(2, 101).map((id) => `/recordings/${id}.mp3`));
		const second = items(await next());
		expect(second.map((i) => i.json.id)).toEqual(range(102, 151));
		expect(second.every((i) => i.binary?.data)).toBe(true);
		expect(downloads).toHaveLength(150);
		expect(await next()).toBeNull();
		expect(requests).toHaveLength(5);
	});
});
