import nock from 'nock';

import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';
import { expectStreamedRecording, streamingBinary } from './streamingBinary';
import { POSTED_CALL, postedCallList } from './helpers/postedCallList';

import { firstOutput } from '../../helpers/hookContext';
import type { LogEntry } from '../../helpers/hookContext';
import { registeredTrigger, trigger } from '../../helpers/registeredTrigger';

beforeEach(() => forgetProcess());

/** The secret of assistant 34 (each registered assistant has its own). */
const SECRET = 'Qm3kZ8pR1vT6wX9yB2nC5dF7gH0jK4lA';

/** The post-call payload of docs/api.md (section 4), transcript as a string. */
const PAYLOAD = {
	...POSTED_CALL,
	extracted_variables: { customer_name: 'Jane Doe', appointment: true },
	input_variables: { customer_name: 'Jane' },
	transcript: 'Assistant: Hello, how can I help?\nCustomer: I would like an appointment.',
	recording_url: 'https://cdn.example.com/recordings/9001.mp3',
};

/** Assistants 12 and 34 registered for Inbound Call Completed; a delivery from 34 of PAYLOAD. */
const registered = registeredTrigger({
	secrets: { 12: 'Tw0SecretForAssistantTwelve12xYz', 34: SECRET },
	payload: PAYLOAD,
});
const { deliver, parameters } = registered;

/** What the node logged as warnings, one per line. */
const warnings = (logs: LogEntry[]) =>
	logs
		.filter((l) => l.level === 'warn')
		.map((l) => l.message)
		.join('\n');

/**
 * The service's call list of `assistantId`, filtered as a post without the secret is checked (its
 * customer number, a day either side of its time): it lists the calls `ids`.
 */
function listing(assistantId: number, ids: number[], times = 1) {
	return postedCallList(
		assistantId,
		ids.map((id) => ({ id, status: 'completed', created_at: '2025-05-02 10:00:00' })),
		times,
	);
}

describe('Voice Chat Assistant Trigger: webhook()', () => {
	describe('the secret', () => {
		it('with the right secret: one item, the payload as received plus event, assistant_id and transcript_text', async () => {
			const { result, response } = await deliver({});
			expect(firstOutput(result.workflowData)).toEqual([
				{
					event: 'inboundCallCompleted',
					assistant_id: 34,
					...PAYLOAD,
					transcript_text: PAYLOAD.transcript,
				},
			]);
			expect(Object.keys(firstOutput(result.workflowData)[0]).slice(0, 3)).toEqual([
				'event',
				'assistant_id',
				'id',
			]);
			expect(result.noWebhookResponse).toBe(true);
			expect(response).toMatchObject({ statusCode: 200, body: { received: true }, ended: true });
		});

		it('a delivery that notes nothing leaves the answer to n8n, which gives {"received": true} once it has created the run; one that notes the watermark answers at once', async () => {
			// the first delivery since n8n started notes the assistant's watermark: it answers itself,
			// before the run, so that n8n saves what it noted
			forgetProcess();
			const first = await deliver({});
			expect(first.result.noWebhookResponse).toBe(true);
			const saved = JSON.parse(JSON.stringify(first.staticData));
			const { result, response } = await deliver({
				staticData: saved,
				body: { ...PAYLOAD, id: 9002 },
			});
			expect(result.noWebhookResponse).toBeUndefined();
			expect(result.webhookResponse).toEqual({ received: true });
			expect(firstOutput(result.workflowData).map((i) => i.id)).toEqual([9002]);
			expect(saved).toEqual(JSON.parse(JSON.stringify(first.staticData)));
			// what n8n then sends (the fixture answers as n8n does)
			expect(response).toMatchObject({ statusCode: 200, body: { received: true } });
		});

		it.each([
			['missing', { assistant_id: '34' }],
			['wrong', { assistant_id: '34', secret: 'Qm3kZ8pR1vT6wX9yB2nC5dF7gH0jK4lB' }],
			['a prefix of the right one', { assistant_id: '34', secret: SECRET.slice(0, 31) }],
			['empty', { assistant_id: '34', secret: '' }],
			['given twice', { assistant_id: '34', secret: [SECRET, SECRET] }],
		])('a %s secret is answered 401 and starts nothing', async (_label, query) => {
			const { result, response } = await deliver({ query });
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response).toMatchObject({
				statusCode: 401,
				body: { message: 'Unauthorized' },
				ended: true,
			});
		});

		it('without a registration in static data nothing can be verified: 401', async () => {
			const { result, response } = await deliver({ staticData: {} });
			expect(result.workflowData).toBeUndefined();
			expect(response.statusCode).toBe(401);
		});

		it('the secret is checked before the body: a bad body with a bad secret is 401, not 400', async () => {
			const { response } = await deliver({ query: {}, body: 'not json' });
			expect(response.statusCode).toBe(401);
		});

		it('"Verify Secret" off accepts calls without the secret (for a watched assistant) that the service lists for it', async () => {
			const list = listing(12, [9000, 9001]);
			const { result, response } = await deliver({
				parameters: parameters({ verifySecret: false }),
				query: { assistant_id: '12' },
			});
			expect(list.isDone()).toBe(true);
			expect(firstOutput(result.workflowData)).toHaveLength(1);
			expect(firstOutput(result.workflowData)[0].assistant_id).toBe(12);
			expect(response.statusCode).toBe(200);
		});
	});

	describe('a post without the secret (Verify Secret off)', () => {
		const unverified = { parameters: parameters({ verifySecret: false }), query: {} };

		it('of a call the service does not list (made up): 401, nothing starts, the log says why', async () => {
			const twelve = listing(12, [9000]);
			const thirtyFour = listing(34, [9002]);
			const { result, response, logs } = await deliver(unverified);
			expect(twelve.isDone() && thirtyFour.isDone()).toBe(true);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response).toMatchObject({
				statusCode: 401,
				body: {
					message:
						'Unauthorized: the service lists no call 9001 of the watched assistant(s) with this customer number',
				},
			});
			expect(warnings(logs)).toMatch(
				/a post of call 9001 without the assistant's secret names no call/,
			);
		});

		it('naming a watched assistant: only that assistant is asked; the call it lists starts once, a repeat is a duplicate without a second check', async () => {
			const thirtyFour = listing(34, [9001]);
			const first = await deliver({ ...unverified, body: { ...PAYLOAD, assistant_id: 34 } });
			expect(thirtyFour.isDone()).toBe(true);
			expect(firstOutput(first.result.workflowData).map((i) => [i.id, i.assistant_id])).toEqual([
				[9001, 34],
			]);
			const again = listing(34, [9001]);
			const repeat = await deliver({ ...unverified, body: { ...PAYLOAD, assistant_id: 34 } });
			expect(again.isDone()).toBe(true);
			expect(repeat.response).toMatchObject({
				statusCode: 200,
				body: { received: true, duplicate: true },
			});
		});

		it('naming an assistant the trigger does not watch: 401 before any request', async () => {
			const { response } = await deliver({ ...unverified, query: { assistant_id: '99' } });
			expect(response.statusCode).toBe(401);
			expect(nock.pendingMocks()).toEqual([]);
		});

		it('without a call id: 401 before any request', async () => {
			const { id: _id, ...withoutId } = PAYLOAD;
			const { response } = await deliver({ ...unverified, body: withoutId });
			expect(response).toMatchObject({
				statusCode: 401,
				body: { message: 'Unauthorized: the post names no call ("id")' },
			});
		});

		it('when the list cannot be read: 401 (the service records a refusal, which the catch-up reads as not delivered)', async () => {
			nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query(true)
				.reply(401, { message: 'Unauthenticated.' });
			const { result, response, logs } = await deliver(unverified);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response).toMatchObject({
				statusCode: 401,
				body: { message: 'Unauthorized: the call could not be checked at the service' },
			});
			expect(warnings(logs)).toMatch(/could not be checked at the service/);
			expect(warnings(logs)).not.toContain(TEST_API_KEY);
		});
	});

	describe('the body', () => {
		it.each([
			['not JSON (text)', 'this is not json'],
			['a JSON array', [PAYLOAD]],
			['a JSON array as text', JSON.stringify([PAYLOAD])],
			['a string', 'completed'],
			['a number', 42],
			['empty', undefined],
			['an empty object', {}],
			['null', null],
		])('%s is answered 400 and starts nothing', async (_label, body) => {
			const { result, response } = await deliver({ body });
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response.statusCode).toBe(400);
			expect(response.body).toEqual({
				message: 'Bad request: the body must be a JSON object with the call data',
			});
		});

		it('a JSON object sent as text (another content type) is read', async () => {
			const { result } = await deliver({
				body: JSON.stringify(PAYLOAD),
				headers: { 'content-type': 'text/plain' },
			});
			expect(firstOutput(result.workflowData)[0].id).toBe(9001);
		});

		it('a body n8n left unparsed is read from the raw bytes', async () => {
			const { result } = await deliver({ body: {}, rawBody: Buffer.from(JSON.stringify(PAYLOAD)) });
			expect(firstOutput(result.workflowData)[0].customer_phone).toBe('+4915112345678');
		});
	});

	describe('the transcript', () => {
		it('an array of turns gives transcript_text as "sender: text" lines and keeps the array', async () => {
			const transcript = [
				{
					text: 'Hello, how can I help?',
					type: 'transcript',
					sender: 'bot',
					timestamp: 1746180000.5,
				},
				{
					text: 'I would like an appointment.',
					type: 'transcript',
					sender: 'human',
					timestamp: 1746180004.75,
				},
			];
			const { result } = await deliver({ body: { ...PAYLOAD, transcript } });
			const [item] = firstOutput(result.workflowData);
			expect(item.transcript).toEqual(transcript);
			expect(item.transcript_text).toBe(
				'bot: Hello, how can I help?\nhuman: I would like an appointment.',
			);
		});

		it('no transcript gives an empty transcript_text', async () => {
			const { transcript: _omitted, ...withoutTranscript } = PAYLOAD;
			const { result } = await deliver({ body: withoutTranscript });
			const [item] = firstOutput(result.workflowData);
			expect(item.transcript_text).toBe('');
			expect('transcript' in item).toBe(false);
		});
	});

	describe('Call Statuses', () => {
		it('a status outside the list is answered 200 and starts nothing', async () => {
			const { result, response } = await deliver({
				parameters: parameters({ options: { callStatuses: ['completed', 'ended_by_customer'] } }),
				body: { ...PAYLOAD, status: 'no-answer' },
			});
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response.statusCode).toBe(200);
			expect(response.body).toEqual({
				received: true,
				ignored: true,
				reason: 'call status "no-answer" is not one this workflow listens to',
			});
		});

		it('a status in the list starts the workflow', async () => {
			const { result } = await deliver({
				parameters: parameters({ options: { callStatuses: ['completed', 'ended_by_customer'] } }),
				body: { ...PAYLOAD, status: 'ended_by_customer' },
			});
			expect(firstOutput(result.workflowData)[0].status).toBe('ended_by_customer');
		});

		it('a call without a status does not pass a non-empty filter; an empty filter lets every call through', async () => {
			const { status: _omitted, ...withoutStatus } = PAYLOAD;
			const filtered = await deliver({
				parameters: parameters({ options: { callStatuses: ['completed'] } }),
				body: withoutStatus,
			});
			expect(filtered.result.workflowData).toBeUndefined();
			const open = await deliver({
				parameters: parameters({ options: { callStatuses: [] } }),
				body: withoutStatus,
			});
			expect(firstOutput(open.result.workflowData)).toHaveLength(1);
		});
	});

	describe('Response Mode', () => {
		it.each(['responseNode', 'lastNode'])(
			'%s: n8n answers later; the node writes nothing',
			async (responseMode) => {
				const { result, response } = await deliver({ parameters: parameters({ responseMode }) });
				expect(result.noWebhookResponse).toBeUndefined();
				expect(result.webhookResponse).toBeUndefined();
				expect(firstOutput(result.workflowData)).toHaveLength(1);
				expect(response.ended).toBe(false);
				expect(response.statusCode).toBeUndefined();
			},
		);

		it('refusals are answered at once in every mode', async () => {
			const { result, response } = await deliver({
				parameters: parameters({ responseMode: 'responseNode' }),
				query: {},
			});
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response.statusCode).toBe(401);
		});
	});

	describe('event and assistant_id', () => {
		it('the event is the registered one (post-call webhook)', async () => {
			const { result } = await deliver({
				staticData: registered.staticData('callCompleted'),
				parameters: parameters({ event: 'callCompleted' }),
			});
			expect(firstOutput(result.workflowData)[0].event).toBe('callCompleted');
		});

		it('without assistant_id in the URL: 401 with "Verify Secret"; without it the watched assistant whose call list shows the call', async () => {
			const verified = await deliver({ query: { secret: SECRET } });
			expect(verified.result).toEqual({ noWebhookResponse: true });
			expect(verified.response.statusCode).toBe(401);

			listing(12, [9001]);
			const single = await deliver({
				staticData: registered.staticData('inboundCallCompleted', [12]),
				parameters: parameters({ additionalAssistants: {}, verifySecret: false }),
				query: {},
			});
			expect(firstOutput(single.result.workflowData)[0].assistant_id).toBe(12);

			// several watched: the one whose list shows the call
			listing(12, []);
			listing(34, [9003]);
			const several = await deliver({
				parameters: parameters({ verifySecret: false }),
				query: {},
				body: { ...PAYLOAD, id: 9003 },
			});
			expect(firstOutput(several.result.workflowData)[0].assistant_id).toBe(34);
		});

		it('does not change the registration', async () => {
			const { staticData } = await deliver({});
			expect(staticData.registration).toEqual(registered.staticData().registration);
		});
	});
});

describe('recording as binary data', () => {
	it('answers the service first, reads the recording URL from the call list (not from the post), downloads it without the key from another host', async () => {
		const list = postedCallList(34, [
			{ id: 9001, recording_url: 'https://media.example.net/r/9001.mp3' },
		]);
		const media = nock('https://media.example.net', { badheaders: ['authorization'] })
			.get('/r/9001.mp3')
			.reply(200, Buffer.from('ID3-audio'), { 'content-type': 'audio/mpeg' });
		const ctx = registered.webhookContext({
			parameters: parameters({ options: { downloadRecording: true } }),
		});
		const binaryCalls = streamingBinary(ctx.context);
		const result = await trigger.webhook.call(ctx.context);
		expect(ctx.response.body).toEqual({ received: true });
		const [item] = result.workflowData![0];
		expect(item.json.recording_url).toBe(PAYLOAD.recording_url);
		expect(item.json.recording_error).toBeUndefined();
		// streamed into n8n's binary data, nothing fetched from cdn.example.com (the post's recording_url)
		expectStreamedRecording(item, binaryCalls);
		expect(ctx.sent.map((r) => `${r.method} ${r.baseURL ?? ''}${String(r.url)}`)).toEqual([
			`GET ${TEST_BASE_URL}/api/user/calls`,
			'GET https://media.example.net/r/9001.mp3',
		]);
		list.done();
		media.done();
	});
});

describe('replays and chat-ended deliveries', () => {
	it('a second delivery of the same call starts nothing and is answered 200; another call does', async () => {
		const first = await deliver({});
		expect(first.result.workflowData).toBeDefined();
		const again = await deliver({});
		expect(again.result.workflowData).toBeUndefined();
		expect(again.response.statusCode).toBe(200);
		expect(again.response.body).toEqual({ received: true, duplicate: true });
		const other = await deliver({ body: { ...PAYLOAD, id: 9002 } });
		expect(other.result.workflowData).toBeDefined();
	});

	it('test deliveries (Listen for Test Event) are never held back as replays', async () => {
		await deliver({ mode: 'manual' });
		expect((await deliver({ mode: 'manual' })).result.workflowData).toBeDefined();
	});

	it('the same delivery to another workflow is not a replay', async () => {
		await deliver({});
		const ctx = registered.webhookContext({ workflowId: 'wf-2' });
		expect((await trigger.webhook.call(ctx.context)).workflowData).toBeDefined();
	});

	it('Conversation Ended: one item with the chat transcript; the status filter does not apply; a retriggered end (new ended_at) starts again', async () => {
		const chat = {
			id: 77,
			conversation_id: '8f14e45f-ceea-4e7a-9c3b-1d2e3f4a5b6c',
			assistant_id: '1b2c3d4e-0000-4000-8000-000000000001',
			type: 'whatsapp',
			message_count: 4,
			status: 'ended',
			transcript: [
				{ role: 'assistant', content: 'Hello!', timestamp: '2026-11-23T10:00:00+01:00' },
				{ role: 'user', content: 'Do you open on Sunday?', timestamp: '2026-11-23T10:00:05+01:00' },
			],
			formatted_transcript: 'AI: Hello!\nCustomer: Do you open on Sunday?',
			ended_at: '2026-11-23T10:31:00+01:00',
		};
		const options = {
			staticData: registered.staticData('conversationEnded'),
			body: chat,
			parameters: parameters({
				event: 'conversationEnded',
				options: { callStatuses: ['completed'] },
			}),
		};
		const first = await deliver(options);
		expect(firstOutput(first.result.workflowData)).toEqual([
			expect.objectContaining({
				event: 'conversationEnded',
				assistant_id: 34,
				conversation_id: chat.conversation_id,
				transcript_text: 'assistant: Hello!\nuser: Do you open on Sunday?',
			}),
		]);
		expect((await deliver(options)).result.workflowData).toBeUndefined();
		expect(
			(await deliver({ ...options, body: { ...chat, ended_at: '2026-11-23T11:40:00+01:00' } }))
				.result.workflowData,
		).toBeDefined();
	});
});
