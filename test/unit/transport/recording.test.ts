/**
 * The recording download shared by Call → Get / Make with Wait, the polling
 * trigger and the webhook trigger: the key only to the credential's origin,
 * redirects followed hop by hop (the key never leaves that origin), the body
 * streamed into n8n's binary data with a size ceiling, and only audio taken.
 */
import nock from 'nock';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { Readable } from 'stream';
import { NodeOperationError } from 'n8n-workflow';

import {
	MAX_RECORDING_BYTES,
	MAX_REDIRECTS,
	callListQuery,
	downloadRecording,
} from '../../../nodes/VoiceChatAssistant/transport/recording';
import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../helpers/context';
import { streamingBinary } from '../trigger/streamingBinary';

const MP3 = Buffer.from([0x49, 0x44, 0x33, 0x03, 0x00, 0xff, 0xfb]);

function context(credentials: IDataObject = {}) {
	const ctx = createContext({ parameters: {}, credentials });
	const binaryCalls = streamingBinary(ctx.context as unknown as { helpers: unknown });
	return { ...ctx, binaryCalls };
}

function requests(sent: IHttpRequestOptions[]): string[] {
	return sent.map(
		(r) =>
			`${r.method} ${String(r.url)}${(r.headers as IDataObject | undefined)?.Authorization ? ' [key]' : ''}`,
	);
}

afterEach(() => nock.cleanAll());

describe('downloadRecording', () => {
	it('the ceiling is 100 MB', () => {
		expect(MAX_RECORDING_BYTES).toBe(100 * 1024 * 1024);
	});

	it("sends the key to the credential's origin only: not to another port or scheme of the same host", async () => {
		nock('https://api.test.local:8443', { badheaders: ['authorization'] })
			.get('/r/1.mp3')
			.reply(200, MP3, { 'content-type': 'audio/mpeg' });
		nock('http://api.test.local', { badheaders: ['authorization'] })
			.get('/r/2.mp3')
			.reply(200, MP3, { 'content-type': 'audio/mpeg' });
		nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get('/r/3.mp3')
			.reply(200, MP3, { 'content-type': 'audio/mpeg' });
		const { context: ctx, sent, binaryCalls } = context();
		await downloadRecording(ctx, 'https://api.test.local:8443/r/1.mp3', 1);
		await downloadRecording(ctx, 'http://api.test.local/r/2.mp3', 2);
		const third = await downloadRecording(ctx, `${TEST_BASE_URL}/r/3.mp3`, 3);
		expect(third).toMatchObject({
			data: MP3.toString('base64'),
			mimeType: 'audio/mpeg',
			fileName: '3.mp3',
		});
		expect(requests(sent)).toEqual([
			'GET https://api.test.local:8443/r/1.mp3',
			'GET http://api.test.local/r/2.mp3',
			`GET ${TEST_BASE_URL}/r/3.mp3 [key]`,
		]);
		expect(binaryCalls.every((c) => c.stream)).toBe(true);
	});

	it("follows a redirect to another origin without the key, and one back to the credential's origin with it", async () => {
		nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get('/r/4.mp3')
			.reply(301, '', { location: 'https://cdn.example.net/a/4.mp3' })
			.get('/final/4.mp3')
			.reply(200, MP3, { 'content-type': 'audio/mpeg' });
		nock('https://cdn.example.net', { badheaders: ['authorization'] })
			.get('/a/4.mp3')
			.reply(307, '', { location: `${TEST_BASE_URL}/final/4.mp3` });
		const { context: ctx, sent } = context();
		const binary = await downloadRecording(ctx, `${TEST_BASE_URL}/r/4.mp3`, 4);
		expect(binary.data).toBe(MP3.toString('base64'));
		expect(requests(sent)).toEqual([
			`GET ${TEST_BASE_URL}/r/4.mp3 [key]`,
			'GET https://cdn.example.net/a/4.mp3',
			`GET ${TEST_BASE_URL}/final/4.mp3 [key]`,
		]);
	});

	it(`gives up after ${MAX_REDIRECTS} redirects, and on a redirect without a Location`, async () => {
		nock('https://cdn.example.net')
			.get(/\/loop\/\d+/)
			.times(MAX_REDIRECTS + 1)
			.reply((uri) => [302, '', { location: `/loop/${Number(uri.split('/').pop()) + 1}` }]);
		nock('https://cdn.example.net').get('/nowhere').reply(302, '');
		const { context: ctx, sent } = context();
		await expect(downloadRecording(ctx, 'https://cdn.example.net/loop/0', 5)).rejects.toThrow(
			`The recording of call 5 could not be downloaded: more than ${MAX_REDIRECTS} redirects`,
		);
		expect(sent).toHaveLength(MAX_REDIRECTS + 1);
		await expect(downloadRecording(ctx, 'https://cdn.example.net/nowhere', 6)).rejects.toThrow(
			'The recording of call 6 could not be downloaded: the server answered HTTP 302 without a Location',
		);
	});

	it('stops a body beyond the ceiling while streaming (no Content-Length)', async () => {
		const big = Buffer.alloc(64 * 1024, 1);
		nock('https://cdn.example.net')
			.get('/big.mp3')
			.reply(200, () => Readable.from([big, big, big]), { 'content-type': 'audio/mpeg' });
		const { context: ctx } = context();
		const error = await downloadRecording(ctx, 'https://cdn.example.net/big.mp3', 7, {
			maxBytes: 100 * 1024,
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(
			'The recording of call 7 is too large (more than 102400 bytes; at most 102400 bytes are downloaded)',
		);
	});

	it('refuses a Content-Length beyond the ceiling before reading the body', async () => {
		nock('https://cdn.example.net')
			.get('/huge.mp3')
			.reply(200, 'x', {
				'content-type': 'audio/mpeg',
				'content-length': String(101 * 1024 * 1024),
			});
		const { context: ctx, binaryCalls } = context();
		await expect(downloadRecording(ctx, 'https://cdn.example.net/huge.mp3', 8)).rejects.toThrow(
			'The recording of call 8 is too large (101 MB; at most 100 MB are downloaded)',
		);
		expect(binaryCalls).toEqual([]);
	});

	it.each([
		['text/html; charset=utf-8', 'text/html'],
		['application/json', 'application/json'],
		['image/png', 'image/png'],
	])('refuses content type %s, naming it', async (header, named) => {
		nock('https://cdn.example.net')
			.get('/x.mp3')
			.reply(200, 'not audio', { 'content-type': header });
		const { context: ctx } = context();
		await expect(downloadRecording(ctx, 'https://cdn.example.net/x.mp3', 9)).rejects.toThrow(
			`The recording of call 9 is not audio: the server sent content type "${named}"`,
		);
	});

	it('takes audio/* and application/octet-stream', async () => {
		nock('https://cdn.example.net')
			.get('/a.wav')
			.reply(200, MP3, { 'content-type': 'audio/wav' })
			.get('/b.bin')
			.reply(200, MP3, { 'content-type': 'application/octet-stream' });
		const { context: ctx } = context();
		expect((await downloadRecording(ctx, 'https://cdn.example.net/a.wav', 10)).mimeType).toBe(
			'audio/wav',
		);
		expect((await downloadRecording(ctx, 'https://cdn.example.net/b.bin', 11)).mimeType).toBe(
			'application/octet-stream',
		);
	});

	it('refuses a URL that is not http(s), before any request', async () => {
		const { context: ctx, sent } = context();
		await expect(downloadRecording(ctx, 'file:///etc/passwd', 12)).rejects.toThrow(
			'The recording URL of call 12 is not an http(s) URL',
		);
		await expect(downloadRecording(ctx, 'not a url', 13)).rejects.toThrow(
			'The recording URL of call 13 is not a URL',
		);
		expect(sent).toEqual([]);
	});

	it('an error status names the call, and the key appears in no message', async () => {
		nock(TEST_BASE_URL).get('/r/14.mp3').reply(403, { message: 'forbidden' });
		const { context: ctx } = context();
		const error = await downloadRecording(ctx, `${TEST_BASE_URL}/r/14.mp3`, 14).catch(
			(e: unknown) => e,
		);
		expect((error as Error).message).toBe(
			'The recording of call 14 could not be downloaded: the server answered HTTP 403 (call 14)',
		);
		expect(JSON.stringify(error)).not.toContain(TEST_API_KEY);
	});

	it('Call → Get with Download Recording streams the recording into the chosen binary property', async () => {
		nock(TEST_BASE_URL).get('/api/user/calls/80').reply(200, {
			id: 80,
			status: 'completed',
			recording_url: 'https://cdn.example.net/rec/80.mp3?sig=abc',
		});
		nock('https://cdn.example.net', { badheaders: ['authorization'] })
			.get('/rec/80.mp3')
			.query({ sig: 'abc' })
			.reply(200, MP3, { 'content-type': 'audio/mpeg' });
		const ctx = createContext({
			parameters: {
				resource: 'call',
				operation: 'get',
				callId: '80',
				options: { downloadRecording: true, binaryPropertyName: 'audio' },
			},
		});
		const binaryCalls = streamingBinary(ctx.context as unknown as { helpers: unknown });
		const [[item]] = await router.call(ctx.context);
		expect(item.binary?.audio).toMatchObject({
			data: MP3.toString('base64'),
			mimeType: 'audio/mpeg',
			fileName: '80.mp3',
		});
		expect(binaryCalls).toEqual([{ stream: true, fileName: '80.mp3', mimeType: 'audio/mpeg' }]);
	});
});

describe('callListQuery', () => {
	it('the assistant, the customer number and a day either side of the call', () => {
		expect(
			callListQuery({
				assistantId: 34,
				callId: 1,
				customerPhone: ' +4915112345678 ',
				when: '2025-03-01T00:30:00Z',
			}),
		).toEqual({
			assistant_id: 34,
			per_page: 100,
			phone_number: '+4915112345678',
			date_from: '2025-02-28',
			date_to: '2025-03-02',
		});
	});

	it('without a number or a date: the assistant alone', () => {
		expect(
			callListQuery({ assistantId: 34, callId: 1, customerPhone: null, when: 'yesterday' }),
		).toEqual({ assistant_id: 34, per_page: 100 });
	});
});
