/**
 * The recordings of a catch-up (Download Recording): a catch-up may start up
 * to 1,000 calls, so it downloads their recordings a few at a time
 * (CATCH_UP_DOWNLOADS_AT_ONCE), at most MAX_CATCH_UP_DOWNLOADS of them, and
 * begins none after CATCH_UP_DOWNLOAD_BUDGET_MS. Every call still starts, in
 * its place (oldest first); those beyond the bound come without the binary,
 * with their `recording_url` and a `recording_error` saying why and how to
 * get the recording. The concurrency is measured in the storage host's
 * answers (nock); n8n's clock is the fake one, moved by the answers.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	CATCH_UP_DOWNLOAD_BUDGET_MS,
	CATCH_UP_DOWNLOADS_AT_ONCE,
	MAX_CATCH_UP_DOWNLOADS,
} from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUp';
import { TEST_BASE_URL } from '../../helpers/context';
import { registeredTrigger } from '../../helpers/registeredTrigger';
import {
	CALLS,
	DELIVERED,
	DELIVERED_ID,
	DELIVERED_START,
	MINUTE,
	URL_PARAM,
} from './catchUpFixtures';
import { BEFORE, DELIVERED_LISTED, catchUpPerTest, gapCalls, staticData } from './catchUpHarness';

const CDN = 'https://cdn.example.com';

const clock = catchUpPerTest();

const PAYLOAD = {
	...DELIVERED,
	transcript: 'bot: Hello\nhuman: I would like an appointment.',
	recording_url: `${CDN}/recordings/${DELIVERED_ID}.mp3`,
	created_at: new Date(DELIVERED_START).toISOString(),
	finished_at: new Date(DELIVERED_START + 73_000).toISOString(),
	lead: null,
	campaign: null,
};

const registered = registeredTrigger({
	secrets: { 12: URL_PARAM, 34: URL_PARAM },
	payload: PAYLOAD,
	loaded: () => staticData(),
});

/** `count` calls that ended during the downtime, one every 2 minutes from 10:01 UTC (ids from 9001). */
function missedCalls(count: number): IDataObject[] {
	return gapCalls(count, 2 * MINUTE).map(({ call }) => call);
}

/** The service: the call list (one page, newest first), and the delivered call's own lookup. */
function service(missed: IDataObject[]) {
	const calls = [DELIVERED_LISTED, ...missed, BEFORE].sort((a, b) => Number(b.id) - Number(a.id));
	nock(TEST_BASE_URL)
		.get(CALLS)
		.query((query) => !('phone_number' in query))
		.reply(200, { current_page: 1, data: calls, next_page_url: null, last_page: 1 });
	nock(TEST_BASE_URL)
		.get(CALLS)
		.query((query) => 'phone_number' in query)
		.reply(200, { current_page: 1, data: [DELIVERED_LISTED], next_page_url: null, last_page: 1 });
}

/**
 * The storage host: every recording answered after a few ms of real time, so
 * downloads that run at once overlap. Records which were fetched, and how
 * many of the caught-up calls' were in flight at most.
 */
function storage(onDownload: (id: number) => void = () => undefined) {
	const fetched: number[] = [];
	let active = 0;
	let most = 0;
	nock(CDN)
		.get(`/recordings/${DELIVERED_ID}.mp3`)
		.reply(200, Buffer.from('ID3-delivered'), { 'content-type': 'audio/mpeg' });
	nock(CDN)
		.persist()
		.get(/^\/recordings\/9\d{3}\.mp3$/)
		.reply(async (uri) => {
			const id = Number(/(\d+)\.mp3$/.exec(uri)![1]);
			fetched.push(id);
			active++;
			most = Math.max(most, active);
			onDownload(id);
			await new Promise((resolve) => setTimeout(resolve, 5));
			active--;
			return [200, Buffer.from(`ID3-${id}`), { 'content-type': 'audio/mpeg' }];
		});
	return {
		fetched,
		most: () => most,
	};
}

async function deliverWithRecordings() {
	const delivery = await registered.deliver({
		parameters: registered.parameters({ options: { downloadRecording: true } }),
	});
	const items = (delivery.result.workflowData as INodeExecutionData[][])[0];
	return { ...delivery, all: items };
}

const HOW_TO =
	"Download it with the Voice Chat Assistant node: Call → Get with this call's ID and the option Download Recording on.";

describe('Voice Chat Assistant Trigger: the recordings of a catch-up are bounded', () => {
	it('states its bounds: 3 at a time, 20 per catch-up, none begun after 60 s', () => {
		expect(CATCH_UP_DOWNLOADS_AT_ONCE).toBe(3);
		expect(MAX_CATCH_UP_DOWNLOADS).toBe(20);
		expect(CATCH_UP_DOWNLOAD_BUDGET_MS).toBe(60_000);
	});

	it(`40 missed calls with recordings: the oldest ${MAX_CATCH_UP_DOWNLOADS} are downloaded, never more than ${CATCH_UP_DOWNLOADS_AT_ONCE} at a time; the others start with recording_url and recording_error, in order`, async () => {
		const missed = missedCalls(40);
		service(missed);
		const host = storage();
		const { all, logs, response } = await deliverWithRecordings();

		// every call starts, oldest first, then the delivered one
		expect(all.map((item) => item.json.id)).toEqual([
			...missed.map((call) => call.id),
			DELIVERED_ID,
		]);
		expect(response).toMatchObject({ statusCode: 200, body: { received: true } });
		// the cap, the oldest first, and never more than N at once (but N at once)
		expect(host.fetched.sort()).toEqual(missed.slice(0, MAX_CATCH_UP_DOWNLOADS).map((c) => c.id));
		expect(host.most()).toBe(CATCH_UP_DOWNLOADS_AT_ONCE);

		const downloaded = all.slice(0, MAX_CATCH_UP_DOWNLOADS);
		for (const item of downloaded) {
			expect(item.json.caught_up).toBe(true);
			expect(item.json.recording_error).toBeUndefined();
			expect(Buffer.from(String(item.binary?.data.data), 'base64').toString()).toBe(
				`ID3-${String(item.json.id)}`,
			);
		}
		const marked = all.slice(MAX_CATCH_UP_DOWNLOADS, 40);
		for (const item of marked) {
			const id = Number(item.json.id);
			expect(item.binary).toBeUndefined();
			expect(item.json.caught_up).toBe(true);
			expect(item.json.recording_url).toBe(`${CDN}/recordings/${id}.mp3`);
			expect(item.json.recording_error).toBe(
				`The recording of call ${id} was not downloaded: a catch-up downloads at most 20 recordings (3 at a time), and this one started 40 calls with a recording. ${HOW_TO}`,
			);
		}
		// the delivered call has its own recording
		expect(all[40].json.recording_error).toBeUndefined();
		expect(all[40].binary?.data).toBeDefined();

		const warnings = logs.filter((l) => l.level === 'warn').map((l) => l.message);
		expect(warnings).toEqual([
			`Voice Chat Assistant Trigger: catching up assistant 34: 20 of 40 call(s) go on without their recording (recording_error), because at most 20 recordings are downloaded per catch-up (ids ${missed
				.slice(20)
				.map((c) => c.id)
				.join(', ')}); download them with Call → Get and Download Recording`,
		]);
	});

	it(`a slow storage host: no download begins ${CATCH_UP_DOWNLOAD_BUDGET_MS / 1000} s after the first; the calls after start with recording_error`, async () => {
		const missed = missedCalls(10);
		service(missed);
		// the first recording takes a minute and a second; the two beside it had begun already
		const host = storage((id) => {
			if (id === 9001) clock.advance(CATCH_UP_DOWNLOAD_BUDGET_MS + 1_000);
		});
		const { all, logs } = await deliverWithRecordings();

		expect(all.map((item) => item.json.id)).toEqual([
			...missed.map((call) => call.id),
			DELIVERED_ID,
		]);
		expect(host.fetched.sort()).toEqual([9001, 9002, 9003]);
		for (const item of all.slice(0, 3)) {
			expect(item.json.recording_error).toBeUndefined();
			expect(item.binary?.data).toBeDefined();
		}
		for (const item of all.slice(3, 10)) {
			expect(item.binary).toBeUndefined();
			expect(item.json.recording_url).toBe(`${CDN}/recordings/${String(item.json.id)}.mp3`);
			expect(item.json.recording_error).toBe(
				`The recording of call ${String(item.json.id)} was not downloaded: a catch-up begins no recording download more than 60 seconds after its first, and this one's downloads took longer. ${HOW_TO}`,
			);
		}
		expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
			expect.stringContaining(
				'catching up assistant 34: 7 of 10 call(s) go on without their recording (recording_error), because no download begins more than 60 seconds after the first (ids 9004, 9005, 9006, 9007, 9008, 9009, 9010)',
			),
		]);
	});

	it('within the bound every recording is downloaded, a few at a time, and nothing is marked', async () => {
		const missed = missedCalls(MAX_CATCH_UP_DOWNLOADS);
		service(missed);
		const host = storage();
		const { all, logs } = await deliverWithRecordings();

		expect(all.map((item) => item.json.id)).toEqual([
			...missed.map((call) => call.id),
			DELIVERED_ID,
		]);
		expect(host.fetched.sort()).toEqual(missed.map((c) => c.id));
		expect(host.most()).toBe(CATCH_UP_DOWNLOADS_AT_ONCE);
		expect(all.every((item) => item.json.recording_error === undefined)).toBe(true);
		expect(all.every((item) => item.binary?.data !== undefined)).toBe(true);
		expect(logs.filter((l) => l.level === 'warn')).toEqual([]);
	});

	it('a failed download counts against the bound and keeps its own recording_error; calls without a recording take no place', async () => {
		// 26 calls, every fifth without a recording: 21 recordings, one over the bound
		const missed = missedCalls(26).map((call, i) =>
			i % 5 === 4 ? { ...call, recording_url: null } : call,
		);
		service(missed);
		nock(CDN).get('/recordings/9001.mp3').reply(500, 'down');
		const host = storage();
		const { all } = await deliverWithRecordings();

		const withRecording = missed.filter((call) => call.recording_url !== null);
		expect(withRecording).toHaveLength(21);
		expect(all.map((item) => item.json.id)).toEqual([
			...missed.map((call) => call.id),
			DELIVERED_ID,
		]);
		// 9001 answered 500 (the interceptor above); 19 more from the storage host; 9026 not asked for
		expect(host.fetched.sort()).toEqual(withRecording.slice(1, 20).map((c) => c.id));
		const byId = new Map(all.map((item) => [Number(item.json.id), item]));
		expect(byId.get(9001)?.json.recording_error).toBe(
			'The recording of call 9001 could not be downloaded: the server answered HTTP 500 (call 9001)',
		);
		expect(byId.get(9026)?.json.recording_error).toBe(
			`The recording of call 9026 was not downloaded: a catch-up downloads at most 20 recordings (3 at a time), and this one started 21 calls with a recording. ${HOW_TO}`,
		);
		for (const id of [9005, 9010, 9015, 9020, 9025]) {
			expect(byId.get(id)?.json.recording_error).toBeUndefined();
			expect(byId.get(id)?.json).not.toHaveProperty('recording_url');
			expect(byId.get(id)?.binary).toBeUndefined();
		}
		const marked = all.filter((item) =>
			/was not downloaded/.test(String(item.json.recording_error)),
		);
		expect(marked.map((item) => item.json.id)).toEqual([9026]);
	});
});
