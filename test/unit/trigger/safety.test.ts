/**
 * The trigger's safety rules: a secret per assistant, the recording read for
 * the call the service names (never from the post's URL), a delivery counted
 * only once its item is built, and activations the service could never
 * deliver to refused. Every test asserts the exact requests sent.
 */
import nock from 'nock';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { isLocalHost } from '../../../nodes/VoiceChatAssistantTrigger/core/service';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { PRODUCTION_URL, firstOutput } from '../../helpers/hookContext';
import {
	registeredTrigger,
	trigger,
	triggerMethods as methods,
} from '../../helpers/registeredTrigger';
import type { Delivery } from '../../helpers/registeredTrigger';
import { expectStreamedRecording, streamingBinary } from './streamingBinary';
import { POSTED_CALL, onePage, postedCallList } from './helpers/postedCallList';

const SECRET_12 = 'AssistantTwelveSecretAbcdefgh012';
const SECRET_34 = 'AssistantThirtyFourSecretXyz3456';
const CALLS = '/api/user/calls';

/** The post-call payload; its recording_url points at a host the trigger must never fetch from. */
const PAYLOAD = {
	...POSTED_CALL,
	transcript: 'Assistant: Hello',
	recording_url: 'https://attacker.example.org/steal.mp3',
};

/** Assistants 12 and 34 registered for Call Completed; a delivery from 34 of PAYLOAD. */
const registered = registeredTrigger({
	event: 'callCompleted',
	secrets: { 12: SECRET_12, 34: SECRET_34 },
	payload: PAYLOAD,
	parameters: { existingWebhook: 'takeOverAndGiveBack' },
});
const { parameters } = registered;

/** A delivery, its recording streamed into binary data; `run` hands it to webhook(). */
function post(options: Delivery = {}) {
	const ctx = registered.webhookContext(options);
	const binaryCalls = streamingBinary(ctx.context);
	return { ...ctx, binaryCalls, run: async () => await trigger.webhook.call(ctx.context) };
}

/** The requests as "METHOD URL" lines, with the Authorization header's presence. */
function requests(sent: IHttpRequestOptions[]): string[] {
	return sent.map((r) => {
		const auth = (r.headers as IDataObject | undefined)?.Authorization ? ' [key]' : '';
		return `${r.method} ${r.baseURL ?? ''}${String(r.url)}${auth}`;
	});
}

/** The service's call list for assistant 34, holding call 9001 with the given recording URL. */
function callList(recordingUrl: string | null, times = 1) {
	return postedCallList(
		34,
		[
			{ id: 9000, recording_url: `${TEST_BASE_URL}/storage/recordings/9000.mp3` },
			{ id: 9001, recording_url: recordingUrl },
		],
		times,
	);
}

/** The service's assistant list at `baseUrl` as checkExists and create read it: one page of `data`. */
function assistantList(data: IDataObject[], baseUrl = TEST_BASE_URL) {
	return nock(baseUrl)
		.get('/api/user/assistants/get')
		.query({ per_page: '100', page: '1' })
		.reply(200, onePage(data));
}

beforeEach(() => {
	forgetProcess();
	resetLimiters();
});
afterEach(() => nock.cleanAll());

describe('a secret per assistant', () => {
	it("assistant 12's post carrying assistant 34's secret is answered 401 and starts nothing", async () => {
		const { run, response, sent } = post({ query: { assistant_id: '12', secret: SECRET_34 } });
		expect(await run()).toEqual({ noWebhookResponse: true });
		expect(response).toMatchObject({ statusCode: 401, body: { message: 'Unauthorized' } });
		expect(sent).toEqual([]);
	});

	it('each assistant passes with its own secret, and the item names it', async () => {
		const twelve = post({ query: { assistant_id: '12', secret: SECRET_12 } });
		expect(firstOutput((await twelve.run()).workflowData)[0].assistant_id).toBe(12);
		const thirtyFour = post({
			query: { assistant_id: '34', secret: SECRET_34 },
			body: { ...PAYLOAD, id: 9002 },
		});
		expect(firstOutput((await thirtyFour.run()).workflowData)[0].assistant_id).toBe(34);
	});

	it.each([
		['an assistant that is not registered', { assistant_id: '56', secret: SECRET_34 }],
		['a non-numeric assistant', { assistant_id: 'abc', secret: SECRET_34 }],
		['assistant_id given twice', { assistant_id: ['34', '34'], secret: SECRET_34 }],
	])('%s is answered 401', async (_label, query) => {
		const { run, response } = post({ query });
		expect(await run()).toEqual({ noWebhookResponse: true });
		expect(response.statusCode).toBe(401);
	});

	it('"Verify Secret" off still refuses an assistant that is not watched', async () => {
		const { run, response } = post({
			parameters: parameters({ verifySecret: false }),
			query: { assistant_id: '56' },
		});
		expect(await run()).toEqual({ noWebhookResponse: true });
		expect(response.statusCode).toBe(401);
	});

	it('a registration saved with one secret for all assistants keeps working until the next activation', async () => {
		const legacy: IDataObject = {
			registration: {
				event: 'callCompleted',
				webhookUrl: PRODUCTION_URL,
				secret: SECRET_12,
				assistants: [
					{ id: 12, url: `${PRODUCTION_URL}?assistant_id=12&secret=${SECRET_12}`, giveBack: [] },
					{ id: 34, url: `${PRODUCTION_URL}?assistant_id=34&secret=${SECRET_12}`, giveBack: [] },
				],
				settings: { send_webhook_only_on_completed: true, include_recording_in_webhook: true },
			},
		};
		const ok = post({ staticData: legacy, query: { assistant_id: '34', secret: SECRET_12 } });
		expect(firstOutput((await ok.run()).workflowData)[0].assistant_id).toBe(34);
		const wrong = post({
			staticData: legacy,
			query: { assistant_id: '34', secret: SECRET_34 },
			body: { ...PAYLOAD, id: 9002 },
		});
		await wrong.run();
		expect(wrong.response.statusCode).toBe(401);

		// a restart: checkExists finds the old registration as it is and keeps it
		assistantList([
			{
				id: 12,
				is_webhook_active: 1,
				webhook_url: `${PRODUCTION_URL}?assistant_id=12&secret=${SECRET_12}`,
			},
			{
				id: 34,
				is_webhook_active: 1,
				webhook_url: `${PRODUCTION_URL}?assistant_id=34&secret=${SECRET_12}`,
			},
		]);
		const restart = registered.hookContext({ staticData: legacy });
		await expect(methods.checkExists.call(restart.context)).resolves.toBe(true);
		expect(restart.sent.map((r) => `${r.method} ${String(r.url)}`)).toEqual([
			'GET /api/user/assistants/get',
		]);
	});
});

describe('Download Recording', () => {
	const download = (extra: IDataObject = {}) =>
		parameters({ options: { downloadRecording: true }, ...extra });

	it("reads the call's recording URL from the service (filtered by the verified assistant), never from the post, and downloads it", async () => {
		const list = callList(`${TEST_BASE_URL}/storage/recordings/9001.mp3`);
		const file = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get('/storage/recordings/9001.mp3')
			.reply(200, Buffer.from('ID3-audio'), {
				'content-type': 'audio/mpeg',
				'content-length': '9',
			});
		// a request to the post's recording_url host would fail the test: nock lets nothing else out
		const attacker = nock('https://attacker.example.org').get(/.*/).reply(200, 'stolen');
		const { run, sent, binaryCalls } = post({ parameters: download() });
		const [item] = (await run()).workflowData![0];
		expect(item.json.recording_error).toBeUndefined();
		expectStreamedRecording(item, binaryCalls);
		expect(requests(sent)).toEqual([
			`GET ${TEST_BASE_URL}${CALLS} [key]`,
			`GET ${TEST_BASE_URL}/storage/recordings/9001.mp3 [key]`,
		]);
		expect(attacker.isDone()).toBe(false);
		list.done();
		file.done();
	});

	it.each(['onReceived', 'lastNode'])(
		'%s: a recording that cannot be fetched gives the item with recording_error; the redelivery after it is a duplicate',
		async (responseMode) => {
			callList('https://media.example.net/r/9001.mp3');
			nock('https://media.example.net').get('/r/9001.mp3').reply(500, 'storage down');
			const first = post({ parameters: download({ responseMode }) });
			const result = await first.run();
			const [item] = firstOutput(result.workflowData);
			expect(item).toMatchObject({ id: 9001, assistant_id: 34 });
			expect(item.recording_error).toBe(
				'The recording of call 9001 could not be downloaded: the server answered HTTP 500 (call 9001)',
			);
			expect(result.workflowData![0][0].binary).toBeUndefined();
			expect(first.logs).toContainEqual({
				level: 'warn',
				message: `Voice Chat Assistant Trigger: call 9001 goes on without its recording: ${String(item.recording_error)}`,
			});
			if (responseMode === 'onReceived') expect(first.response.body).toEqual({ received: true });
			else expect(first.response.ended).toBe(false);

			const again = post({ parameters: download({ responseMode }) });
			expect(await again.run()).toEqual({ noWebhookResponse: true });
			expect(again.response.body).toEqual({ received: true, duplicate: true });
			expect(again.sent).toEqual([]);
		},
	);

	it("a redelivery arriving while the first delivery's item is built is a duplicate, and so is one after it", async () => {
		callList('https://media.example.net/r/9001.mp3');
		nock('https://media.example.net')
			.get('/r/9001.mp3')
			.delay(150)
			.reply(200, Buffer.from('ID3'), { 'content-type': 'audio/mpeg' });
		const first = post({ parameters: download({ responseMode: 'lastNode' }) });
		const second = post({ parameters: download({ responseMode: 'lastNode' }) });
		const [a, b] = await Promise.all([first.run(), second.run()]);
		expect(firstOutput(a.workflowData)).toHaveLength(1);
		expect(b.workflowData).toBeUndefined();
		expect(second.response.body).toEqual({ received: true, duplicate: true });
		const third = post({ parameters: download({ responseMode: 'lastNode' }) });
		expect((await third.run()).workflowData).toBeUndefined();
		expect(third.response.body).toEqual({ received: true, duplicate: true });
	});

	it('a redirect to another origin is followed without the key', async () => {
		callList(`${TEST_BASE_URL}/storage/recordings/9001.mp3`);
		const api = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get('/storage/recordings/9001.mp3')
			.reply(302, '', { location: 'https://media.example.net/signed/9001.mp3?sig=abc' });
		const media = nock('https://media.example.net', { badheaders: ['authorization'] })
			.get('/signed/9001.mp3')
			.query({ sig: 'abc' })
			.reply(200, Buffer.from('ID3-audio'), { 'content-type': 'audio/mpeg' });
		const { run, sent } = post({ parameters: download() });
		const [item] = (await run()).workflowData![0];
		expect(item.json.recording_error).toBeUndefined();
		expect(item.binary?.data?.data).toBe(Buffer.from('ID3-audio').toString('base64'));
		expect(requests(sent)).toEqual([
			`GET ${TEST_BASE_URL}${CALLS} [key]`,
			`GET ${TEST_BASE_URL}/storage/recordings/9001.mp3 [key]`,
			'GET https://media.example.net/signed/9001.mp3?sig=abc',
		]);
		expect(JSON.stringify(sent.slice(2))).not.toContain(TEST_API_KEY);
		api.done();
		media.done();
	});

	it('a recording larger than the ceiling (100 MB) is refused by its Content-Length', async () => {
		callList('https://media.example.net/r/9001.mp3');
		nock('https://media.example.net')
			.get('/r/9001.mp3')
			.reply(200, Buffer.from('ID3'), {
				'content-type': 'audio/mpeg',
				'content-length': String(150 * 1024 * 1024),
			});
		const { run, binaryCalls } = post({ parameters: download() });
		const [item] = (await run()).workflowData![0];
		expect(item.json.recording_error).toBe(
			'The recording of call 9001 is too large (150 MB; at most 100 MB are downloaded)',
		);
		expect(item.binary).toBeUndefined();
		expect(binaryCalls).toEqual([]);
	});

	it('a body that is not audio is refused, naming its content type', async () => {
		callList('https://media.example.net/r/9001.mp3');
		nock('https://media.example.net')
			.get('/r/9001.mp3')
			.reply(200, '<html>login</html>', { 'content-type': 'text/html; charset=utf-8' });
		const { run } = post({ parameters: download() });
		const [item] = (await run()).workflowData![0];
		expect(item.json.recording_error).toBe(
			'The recording of call 9001 is not audio: the server sent content type "text/html"',
		);
		expect(item.binary).toBeUndefined();
	});

	it('a call the list does not hold for the assistant, or without a recording, gives recording_error', async () => {
		postedCallList(34, [{ id: 7, recording_url: null }]);
		const missing = post({ parameters: download() });
		expect(firstOutput((await missing.run()).workflowData)[0].recording_error).toBe(
			'Call 9001 is not among the calls of assistant 34 at the service',
		);

		callList(null);
		const none = post({
			parameters: download(),
			body: { ...PAYLOAD, id: 9001 },
			workflowId: 'wf-2',
		});
		expect(firstOutput((await none.run()).workflowData)[0].recording_error).toBe(
			'The service lists no recording for call 9001 (yet)',
		);
	});

	it('a post that says the call has no recording asks nothing', async () => {
		const { run, sent } = post({
			parameters: download(),
			body: { ...PAYLOAD, recording_url: null },
		});
		const [item] = firstOutput((await run()).workflowData);
		expect(item.recording_error).toBeUndefined();
		expect(sent).toEqual([]);
	});

	it('with "Verify Secret" off no recording is fetched: the item says why (the post is only checked against the call list)', async () => {
		const attacker = nock('https://attacker.example.org').get(/.*/).reply(200, 'x');
		const list = callList('https://attacker.example.org/rec.mp3');
		const { run, sent } = post({
			parameters: download({ verifySecret: false }),
			query: { assistant_id: '34' },
		});
		const [item] = firstOutput((await run()).workflowData);
		expect(item.recording_error).toBe(
			'The recording is downloaded only for deliveries with a verified secret (turn "Verify Secret" on)',
		);
		expect(list.isDone()).toBe(true);
		expect(requests(sent)).toEqual([`GET ${TEST_BASE_URL}/api/user/calls [key]`]);
		expect(attacker.isDone()).toBe(false);
	});

	it('with "Verify Secret" off, activation fails naming both options, before any request', async () => {
		const { context, sent } = registered.hookContext({
			parameters: download({ verifySecret: false }),
		});
		const error = await methods.create.call(context).catch((e: unknown) => e);
		expect((error as Error).message).toBe('"Download Recording" needs "Verify Secret" to be on');
		expect((error as { description?: string }).description).toMatch(
			/Turn "Verify Secret" on, or turn the option "Download Recording" off/,
		);
		await expect(methods.checkExists.call(context)).rejects.toThrow(
			'"Download Recording" needs "Verify Secret" to be on',
		);
		expect(sent).toEqual([]);
	});
});

describe('an unreachable webhook URL', () => {
	const LOCAL_URL = 'http://localhost:5678/webhook/3f9c2a10-webhook-id/webhook';

	it('loopback webhook URL with a public Base URL: activation fails naming N8N_WEBHOOK_URL, before any request', async () => {
		for (const webhookUrl of [
			LOCAL_URL,
			'http://127.0.0.1:5678/webhook/x/webhook',
			'http://[::1]:5678/webhook/x/webhook',
			'http://192.168.1.20:5678/webhook/x/webhook',
		]) {
			const { context, sent } = registered.hookContext({ webhookUrl });
			const error = await methods.create.call(context).catch((e: unknown) => e);
			expect((error as Error).message).toMatch(
				/^The service cannot reach this n8n: its webhook URL is on .+, a local address$/,
			);
			expect((error as { description?: string }).description).toContain(
				'Set N8N_WEBHOOK_URL (on n8n 1.x WEBHOOK_URL) to the public https address of this n8n (for example N8N_WEBHOOK_URL=https://n8n.example.com/)',
			);
			// nothing registered: checkExists asks nothing and says so, and n8n's create then refuses
			await expect(methods.checkExists.call(context)).resolves.toBe(false);
			expect(sent).toEqual([]);
		}
	});

	it('both local (a service on this machine): activation goes on', async () => {
		const local = 'http://127.0.0.1:4010';
		assistantList(
			[
				{ id: 12, webhook_url: null, is_webhook_active: 0 },
				{ id: 34, webhook_url: null, is_webhook_active: 0 },
			],
			local,
		)
			.put(/^\/api\/user\/assistant\/(12|34)$/)
			.times(2)
			.reply(200, { message: 'Assistant updated successfully', data: {} });
		const { context, sent } = registered.hookContext({
			webhookUrl: LOCAL_URL,
			credentials: { baseUrl: local },
		});
		await expect(methods.create.call(context)).resolves.toBe(true);
		expect(sent.map((r) => `${r.method} ${String(r.url)}`)).toEqual([
			'GET /api/user/assistants/get',
			'PUT /api/user/assistant/12',
			'PUT /api/user/assistant/34',
		]);
	});

	it.each([
		['localhost', true],
		['app.localhost', true],
		['127.0.0.1', true],
		['127.5.6.7', true],
		['10.0.0.8', true],
		['172.16.0.1', true],
		['172.31.255.255', true],
		['172.32.0.1', false],
		['192.168.0.10', true],
		['169.254.169.254', true],
		['[::1]', true],
		['[fd12:3456::1]', true],
		['[fe80::1]', true],
		['[::ffff:7f00:1]', true],
		['8.8.8.8', false],
		['[2001:db8::1]', false],
		['n8n.example.com', false],
		['app.famulor.de', false],
	])('%s is local: %s', (host, local) => {
		expect(isLocalHost(host)).toBe(local);
	});
});
