/**
 * Call → Make with Wait for Result, and the recording as binary data (Make
 * with Wait, Get): growing pauses, a timeout naming the call, and the API key
 * sent only to the credential's own host.
 */
import nock from 'nock';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { WAIT_STEPS_MS } from '../../../../nodes/VoiceChatAssistant/actions/call/result';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { rl } from '../helpers';

const MP3 = Buffer.from([0x49, 0x44, 0x33, 0x03, 0x00, 0xff, 0xfb]);
const make = (options: object) => ({
	resource: 'call',
	operation: 'make',
	assistantId: rl('2'),
	phoneNumber: '+4915112345678',
	options,
});

describe('Call → Make: Wait for Result; recordings', () => {
	const clock = fakeClockPerTest();

	it('looks at the call with growing pauses until its status is final and outputs the final call', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/make_call')
			.reply(200, { message: 'Call initiated', call_id: 77, status: 'initiated' })
			.get('/api/user/calls/77')
			.reply(404, { message: 'Call not found' })
			.get('/api/user/calls/77')
			.reply(200, { id: 77, status: 'ringing' })
			.get('/api/user/calls/77')
			.reply(200, { data: { id: 77, status: 'in-progress' } })
			.get('/api/user/calls/77')
			.reply(200, { id: 77, status: 'no-answer', transcript: '', variables: [] });
		const { context } = createContext({
			parameters: make({ waitForResult: true, simplify: false }),
		});
		const [output] = await router.call(context);
		expect(output).toEqual([
			{
				json: { id: 77, status: 'no-answer', transcript: '', variables: [] },
				pairedItem: { item: 0 },
			},
		]);
		expect(clock.sleeps).toEqual(WAIT_STEPS_MS.slice(0, 4));
		scope.done();
	});

	it('a call that does not end in time fails the item, naming the call; with Continue On Fail it is an error item', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/make_call')
			.reply(200, { message: 'Call initiated', call_id: 78, status: 'initiated' })
			.get('/api/user/calls/78')
			.times(100)
			.reply(200, { id: 78, status: 'in-progress' });
		const { context } = createContext({
			parameters: make({ waitForResult: true, timeoutMinutes: 1 }),
			continueOnFail: true,
		});
		const [output] = await router.call(context);
		expect(output[0].json.error).toBe(
			'Call 78 did not end within 1 minutes (last status: in-progress)',
		);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(60_000);
	});

	it('Make with Wait downloads the recording from the service host with the key, into the chosen binary property', async () => {
		const url = `${TEST_BASE_URL}/storage/recordings/79.mp3`;
		nock(TEST_BASE_URL)
			.post('/api/user/make_call')
			.reply(200, { call_id: 79, status: 'initiated' })
			.get('/api/user/calls/79')
			.reply(200, { id: 79, status: 'completed', recording_url: url });
		const recording = nock(TEST_BASE_URL, {
			reqheaders: { authorization: `Bearer ${TEST_API_KEY}` },
		})
			.get('/storage/recordings/79.mp3')
			.reply(200, MP3, { 'content-type': 'audio/mpeg' });
		const { context } = createContext({
			parameters: make({
				waitForResult: true,
				downloadRecording: true,
				binaryPropertyName: 'audio',
				simplify: false,
			}),
		});
		const [[item]] = await router.call(context);
		expect(item.json).toEqual({ id: 79, status: 'completed', recording_url: url });
		expect(item.binary?.audio).toMatchObject({
			data: MP3.toString('base64'),
			mimeType: 'audio/mpeg',
			fileName: '79.mp3',
		});
		recording.done();
	});

	it('Get downloads a recording on another host without the API key', async () => {
		const url = 'https://cdn.example.net/rec/80.mp3?sig=abc';
		nock(TEST_BASE_URL)
			.get('/api/user/calls/80')
			.reply(200, { id: 80, status: 'completed', recording_url: url });
		nock('https://cdn.example.net', { badheaders: ['authorization'] })
			.get('/rec/80.mp3')
			.query({ sig: 'abc' })
			.reply(200, MP3, { 'content-type': 'audio/mpeg' });
		const { context, sent } = createContext({
			parameters: {
				resource: 'call',
				operation: 'get',
				callId: '80',
				options: { downloadRecording: true, binaryPropertyName: 'data' },
			},
		});
		const [[item]] = await router.call(context);
		expect(item.binary?.data?.data).toBe(MP3.toString('base64'));
		expect(
			JSON.stringify(sent.filter((r) => String(r.url).includes('cdn.example.net'))),
		).not.toContain(TEST_API_KEY);
	});

	it('Get without a recording URL outputs the call alone', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/calls/81')
			.reply(200, { id: 81, status: 'failed', recording_url: null });
		const { context } = createContext({
			parameters: {
				resource: 'call',
				operation: 'get',
				callId: '81',
				options: { downloadRecording: true },
			},
		});
		const [[item]] = await router.call(context);
		expect(item).toEqual({
			json: { id: 81, status: 'failed', recording_url: null },
			pairedItem: { item: 0 },
		});
	});

	it('Simplify (on by default) keeps ten fields of the final call, the transcript as one string', async () => {
		// eight of the ten fields Simplify keeps, as the call has them; summary and transcript are made
		// from its evaluation and transcript
		const kept = {
			id: 83,
			type: 'outbound',
			status: 'completed',
			duration: 42,
			assistant_name: 'Sales',
			client_phone_number: '+4915112345678',
			created_at: '2026-11-23 10:00:00',
			variables: { interested: true },
		};
		const call = {
			...kept,
			assistant_phone_number: '+4930123',
			updated_at: '2026-11-23 10:01:00',
			transcript: [
				{ text: 'Hello', sender: 'bot' },
				{ text: 'Hi', sender: 'human' },
			],
			evaluation: { summary: 'Interested.' },
			carrier_cost: '0.01',
			total_cost: '0.09',
			answered_by: 'human',
			recording_url: null,
			webhook_response: null,
		};
		nock(TEST_BASE_URL)
			.post('/api/user/make_call')
			.reply(200, { call_id: 83, status: 'initiated' })
			.get('/api/user/calls/83')
			.reply(200, call);
		const { context } = createContext({ parameters: make({ waitForResult: true }) });
		const [[item]] = await router.call(context);
		expect(item.json).toEqual({
			...kept,
			summary: 'Interested.',
			transcript: 'bot: Hello\nhuman: Hi',
		});
		expect(Object.keys(item.json)).toHaveLength(10);
	});

	it('without Wait for Result, Make outputs the service answer at once (no look at the call)', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/make_call')
			.reply(200, { call_id: 82, status: 'initiated' });
		const { context } = createContext({ parameters: make({}) });
		expect((await router.call(context))[0][0].json).toEqual({ call_id: 82, status: 'initiated' });
		expect(clock.sleeps).toEqual([]);
	});
});
