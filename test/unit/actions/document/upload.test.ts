import nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';

import {
	BASE64_SLICE_CHARS,
	StreamedFile,
	decodeBase64Slices,
	isSliceableBase64,
} from '../../../../nodes/VoiceChatAssistant/actions/document/upload';
import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { parseMultipart } from '../../../helpers/multipart';

/** Varied bytes, the same on every run: every base64 character occurs. */
function bytesOf(length: number, seed = 7): Buffer {
	const out = Buffer.alloc(length);
	let x = seed;
	for (let n = 0; n < length; n++) {
		x = (x * 1103515245 + 12345) >>> 0;
		out[n] = x >>> 24;
	}
	return out;
}

const joined = (chunks: Iterable<Uint8Array>) => Buffer.concat([...chunks]);

/** The bytes of the multipart body's `file` part. */
function filePart(body: Buffer, contentType: string): Buffer {
	return parseMultipart(body, contentType).find((part) => part.name === 'file')!.content;
}

describe('inline base64, decoded slice by slice', () => {
	it('gives the exact bytes for every size around the slice boundaries, base64 and base64url', () => {
		for (const sliceChars of [4, 8, 12, 64]) {
			for (let length = 0; length <= 3 * (sliceChars / 4) * 3 + 2; length++) {
				const bytes = bytesOf(length, length + sliceChars);
				for (const data of [bytes.toString('base64'), bytes.toString('base64url')]) {
					expect(isSliceableBase64(data)).toBe(true);
					expect(joined(decodeBase64Slices(data, sliceChars)).equals(bytes)).toBe(true);
					expect(Buffer.byteLength(data, 'base64')).toBe(length);
				}
			}
		}
	});

	it('decodes truncated and unpadded data as Buffer.from does, and byteLength is its length', () => {
		const full = bytesOf(40).toString('base64');
		const variants = new Set<string>();
		for (let end = 0; end <= full.length; end++) {
			const cut = full.slice(0, end).replace(/=+$/, '');
			variants.add(cut);
			variants.add(`${cut}=`);
			variants.add(`${cut}==`);
		}
		for (const data of variants) {
			if (!isSliceableBase64(data)) continue;
			const whole = Buffer.from(data, 'base64');
			for (const sliceChars of [4, 8, 16]) {
				expect(joined(decodeBase64Slices(data, sliceChars)).equals(whole)).toBe(true);
			}
			expect(Buffer.byteLength(data, 'base64')).toBe(whole.length);
		}
	});

	it('cuts at whole slices: 48 KiB chunks, the last one the rest, none empty', () => {
		expect(BASE64_SLICE_CHARS % 4).toBe(0);
		const slice = (BASE64_SLICE_CHARS / 4) * 3;
		for (const length of [1, 2, 3, slice - 1, slice, slice + 1, 2 * slice, 300_001]) {
			const bytes = bytesOf(length);
			const chunks = [...decodeBase64Slices(bytes.toString('base64'))];
			const sizes = chunks.map((chunk) => chunk.length);
			const full = Math.floor(length / slice);
			const expected = Array<number>(full).fill(slice);
			if (length % slice) expected.push(length % slice);
			expect(sizes).toEqual(expected);
			expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
		}
		expect([...decodeBase64Slices('')]).toEqual([]);
	});

	it('accepts only a slice length that is a positive multiple of 4', () => {
		for (const bad of [0, -4, 6, 4.5]) {
			expect(() => [...decodeBase64Slices('QUJD', bad)]).toThrow(RangeError);
		}
	});

	it('leaves data with line breaks, spaces or inner padding to whole decoding', () => {
		const data = bytesOf(100).toString('base64');
		for (const odd of [
			`${data.slice(0, 76)}\n${data.slice(76)}`,
			`${data.slice(0, 76)}\r\n${data.slice(76)}`,
			` ${data}`,
			`${data} `,
			'QQ==QUJD',
			'QUJD===',
			'data:application/pdf;base64,QUJD',
		]) {
			expect(isSliceableBase64(odd)).toBe(false);
		}
	});
});

describe('StreamedFile', () => {
	const content = bytesOf(100_001);
	const file = () =>
		new StreamedFile('a.pdf', 'application/pdf', content.length, async () =>
			decodeBase64Slices(content.toString('base64'), 4096),
		);

	it('reports its name, type and size without reading; every stream reads it anew', async () => {
		let opened = 0;
		const f = new StreamedFile('a.pdf', 'application/pdf', content.length, async () => {
			opened++;
			return decodeBase64Slices(content.toString('base64'), 4096);
		});
		expect([f.name, f.type, f.size, opened]).toEqual(['a.pdf', 'application/pdf', 100_001, 0]);
		for (let round = 1; round <= 2; round++) {
			const chunks: Uint8Array[] = [];
			for await (const chunk of f.stream()) chunks.push(chunk);
			expect(Buffer.concat(chunks).equals(content)).toBe(true);
			expect(Math.max(...chunks.map((c) => c.length))).toBe(3072);
			expect(opened).toBe(round);
		}
	});

	it('bytes(), arrayBuffer() and text() give the whole content', async () => {
		expect(Buffer.from(await file().bytes()).equals(content)).toBe(true);
		expect(Buffer.from(await file().arrayBuffer()).equals(content)).toBe(true);
		const text = 'Öffnungszeiten: 9–17 Uhr\n'.repeat(1000);
		const t = new StreamedFile('t.txt', 'text/plain', Buffer.byteLength(text), async () =>
			decodeBase64Slices(Buffer.from(text).toString('base64'), 64),
		);
		expect(await t.text()).toBe(text);
	});

	it('a cancelled stream stops the source', async () => {
		let finished = false;
		async function* source() {
			try {
				for (let n = 0; n < 100; n++) yield Buffer.alloc(10, n);
			} finally {
				finished = true;
			}
		}
		const reader = new StreamedFile('a.pdf', 'application/pdf', 1000, async () => source())
			.stream()
			.getReader();
		expect(Buffer.from((await reader.read()).value!).equals(Buffer.alloc(10, 0))).toBe(true);
		await reader.cancel();
		expect(finished).toBe(true);
	});
});

describe('Document → Create with inline (base64) data', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	const parameters = {
		resource: 'document',
		operation: 'create',
		knowledgebaseId: { __rl: true, mode: 'id', value: '4' },
		name: 'Manual',
		type: 'auto',
		binaryPropertyName: 'data',
	};
	const created = { id: 31, name: 'Manual', type: 'pdf', status: 'processing' };
	const itemWith = (data: string): INodeExecutionData => ({
		json: {},
		binary: {
			data: { data, fileName: 'manual.pdf', mimeType: 'application/pdf', fileExtension: 'pdf' },
		},
	});
	function capture(statuses: number[] = [201]) {
		const bodies: Array<{ body: Buffer; contentType: string; length: number }> = [];
		for (const status of statuses) {
			nock(TEST_BASE_URL)
				.post('/api/user/knowledgebases/4/documents')
				.reply(function (_uri, body) {
					bodies.push({
						// nock hands a binary body over as hex, a printable one as text
						body: Buffer.isBuffer(body)
							? body
							: Buffer.from(body as string, /^[0-9a-f]+$/i.test(body as string) ? 'hex' : 'utf8'),
						contentType: String(this.req.headers['content-type']),
						length: Number(this.req.headers['content-length']),
					});
					return status === 429
						? [429, { message: 'Too Many Attempts.', retry_after: 0 }]
						: [status, { data: created }];
				});
		}
		return bodies;
	}

	it.each([1, 2, 3, 49_151, 49_152, 49_153, 300_001])(
		'sends %i bytes exactly, with the right Content-Length, never decoding the file whole',
		async (length) => {
			const content = bytesOf(length, length);
			const bodies = capture();
			const { context, binaryCalls } = createContext({
				parameters,
				items: [itemWith(content.toString('base64'))],
			});
			const [output] = await router.call(context);
			expect(output).toEqual([{ json: created, pairedItem: { item: 0 } }]);
			const [{ body, contentType, length: declared }] = bodies;
			expect(declared).toBe(body.length);
			const file = parseMultipart(body, contentType).find((part) => part.name === 'file')!;
			expect([file.filename, file.contentType]).toEqual(['manual.pdf', 'application/pdf']);
			expect(file.content.equals(content)).toBe(true);
			// getBinaryDataBuffer (a whole decoded copy) is never asked for
			expect(binaryCalls).toEqual([]);
		},
	);

	it('a retry after a 429 decodes and sends the whole file again', async () => {
		const content = bytesOf(150_000);
		const bodies = capture([429, 201]);
		const { context } = createContext({
			parameters,
			items: [itemWith(content.toString('base64'))],
		});
		await router.call(context);
		expect(bodies).toHaveLength(2);
		for (const { body, contentType, length } of bodies) {
			expect(length).toBe(body.length);
			expect(filePart(body, contentType).equals(content)).toBe(true);
		}
	});

	it('base64 with line breaks is decoded whole, as before, and sent byte for byte', async () => {
		const content = bytesOf(1000);
		const wrapped = content.toString('base64').replace(/.{76}/g, '$&\n');
		const bodies = capture();
		const { context, binaryCalls } = createContext({ parameters, items: [itemWith(wrapped)] });
		await router.call(context);
		expect(binaryCalls).toEqual(['buffer 0 data']);
		const [{ body, contentType, length }] = bodies;
		expect(length).toBe(body.length);
		expect(filePart(body, contentType).equals(content)).toBe(true);
	});

	it('an oversized inline file is refused from the length of its data, undecoded and unsent', async () => {
		const data = 'A'.repeat(Math.ceil(((20 * 1024 * 1024 + 1) * 4) / 3 / 4) * 4);
		const { context, binaryCalls, sent } = createContext({ parameters, items: [itemWith(data)] });
		await expect(router.call(context)).rejects.toThrow('the service accepts at most 20 MB');
		expect(binaryCalls).toEqual([]);
		expect(sent).toHaveLength(0);
	});
});
