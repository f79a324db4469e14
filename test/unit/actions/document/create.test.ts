import nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { installFakeClock } from '../../../helpers/fakeClock';
import type { Upload } from './createFixtures';
import {
	PATH,
	createDocument,
	expectParts,
	fileItem,
	recordUpload,
	storedItem,
	website,
} from './createFixtures';

const created = { id: 31, name: 'Manual', type: 'pdf', status: 'processing' };
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The uploads of the test, the first answered with the created document. */
function captureUpload() {
	const uploads: Upload[] = [];
	recordUpload(nock(TEST_BASE_URL), uploads, 201, { message: 'Document created', data: created });
	return uploads;
}

describe('Document → Create', () => {
	it.each([
		['manual.pdf', 'application/pdf', 'pdf', Buffer.from('%PDF-1.4\nfake pdf body\n%%EOF')],
		['notes.txt', 'text/plain', 'txt', Buffer.from('Opening hours: 9-17\nPrices: see list\n')],
		['offer.docx', DOCX, 'docx', Buffer.from('PK\u0003\u0004 fake docx zip')],
	])(
		'uploads %s as multipart: name, description, type and the file part',
		async (fileName, mimeType, type, content) => {
			const uploads = captureUpload();
			const { context } = createContext({
				parameters: createDocument({
					name: 'Manual',
					type: 'auto',
					binaryPropertyName: 'data',
					options: { description: 'For support' },
				}),
				items: [fileItem(content, fileName, mimeType)],
			});
			const [output] = await router.call(context);
			expect(output).toEqual([{ json: created, pairedItem: { item: 0 } }]);
			expectParts(
				uploads[0],
				[
					['name', 'Manual'],
					['description', 'For support'],
					['type', type],
				],
				{ filename: fileName, contentType: mimeType, content },
			);
		},
	);

	it('an explicit type and another binary property are used as given', async () => {
		const uploads = captureUpload();
		const { context } = createContext({
			parameters: createDocument({
				name: 'Readme',
				type: 'txt',
				binaryPropertyName: 'attachment_0',
			}),
			items: [fileItem(Buffer.from('hello'), 'README', 'application/octet-stream', 'attachment_0')],
		});
		await router.call(context);
		expectParts(
			uploads[0],
			[
				['name', 'Readme'],
				['type', 'txt'],
			],
			{ filename: 'README', contentType: 'text/plain', content: Buffer.from('hello') },
		);
	});

	it.each([
		[
			'a website by main URL is sent as JSON',
			{ url: 'https://example.com/faq', relative_links_limit: 25 },
			{
				websiteSource: 'url',
				url: 'https://example.com/faq',
				options: { relativeLinksLimit: 25 },
			},
		],
		[
			'a website by a list of links is sent as JSON with {link} items',
			{ links: [{ link: 'https://example.com/a' }, { link: 'https://example.com/b' }] },
			{
				websiteSource: 'links',
				links: { link: [{ link: 'https://example.com/a' }, { link: ' https://example.com/b ' }] },
			},
		],
	])('%s', async (_title, sent, source) => {
		const scope = nock(TEST_BASE_URL)
			.post(PATH, { name: 'Site', type: 'website', ...sent })
			.reply(201, { data: { ...created, type: 'website' } });
		await router.call(createContext({ parameters: website(source) }).context);
		scope.done();
	});

	describe('refusals, each with no request sent', () => {
		const base = createDocument({ name: 'Doc', binaryPropertyName: 'data' });
		it.each([
			[
				'a file over 20 MB',
				{ ...base, type: 'auto' },
				[fileItem(Buffer.alloc(20 * 1024 * 1024 + 1, 1), 'big.pdf', 'application/pdf')],
				'is 20.0 MB; the service accepts at most 20 MB',
			],
			[
				'an empty file',
				{ ...base, type: 'auto' },
				[fileItem(Buffer.alloc(0), 'empty.txt', 'text/plain')],
				'is empty (0 bytes)',
			],
			[
				'a wrong file type',
				{ ...base, type: 'auto' },
				[fileItem(Buffer.from('x'), 'photo.png', 'image/png')],
				'accepted are pdf, txt and docx',
			],
			[
				'a missing binary property',
				{ ...base, type: 'auto' },
				[{ json: {} }],
				'The input item has no binary property "data"',
			],
			[
				'a website with neither URL nor links',
				{ ...base, type: 'website', websiteSource: 'url', url: '' },
				[{ json: {} }],
				'needs a URL or a list of links',
			],
			[
				'a website with an invalid link',
				{
					...base,
					type: 'website',
					websiteSource: 'links',
					links: { link: [{ link: 'example' }] },
				},
				[{ json: {} }],
				'Links → Link 1 must be a valid http(s) URL',
			],
			[
				'a relative links limit of 51',
				{
					...base,
					type: 'website',
					websiteSource: 'url',
					url: 'https://example.com',
					options: { relativeLinksLimit: 51 },
				},
				[{ json: {} }],
				'Relative Links Limit must be a whole number from 1 to 50',
			],
			[
				'a name over 255 characters',
				{
					...base,
					name: 'n'.repeat(256),
					type: 'website',
					websiteSource: 'url',
					url: 'https://example.com',
				},
				[{ json: {} }],
				'Name is too long',
			],
		])('%s', async (_what, parameters, items, message) => {
			const { context } = createContext({ parameters, items: items as INodeExecutionData[] });
			await expect(router.call(context)).rejects.toThrow(message);
			expect(nock.pendingMocks()).toEqual([]);
		});
	});

	it.each([
		[404, { error: 'Knowledgebase not found.' }, 'Knowledgebase not found.'],
		[
			422,
			{ message: 'The given data was invalid.', errors: { file: ['The file field is required.'] } },
			'file: The file field is required.',
		],
		[
			500,
			{ error: 'Failed to create document. Please try again.' },
			'Failed to create document. Please try again.',
		],
	])('shows the service answer %i', async (status, body, message) => {
		nock(TEST_BASE_URL).post(PATH).reply(status, body);
		const { context } = createContext({
			parameters: createDocument({ name: 'Doc', type: 'auto', binaryPropertyName: 'data' }),
			items: [fileItem(Buffer.from('hi'), 'a.txt', 'text/plain')],
		});
		await expect(router.call(context)).rejects.toThrow(message);
	});

	describe('Wait Until Processed', () => {
		let clock: ReturnType<typeof installFakeClock>;
		beforeEach(() => {
			clock = installFakeClock();
		});
		afterEach(() => clock.restore());
		const parameters = (timeoutSeconds = 300) =>
			createDocument({
				name: 'Manual',
				type: 'pdf',
				binaryPropertyName: 'data',
				options: { waitUntilProcessed: true, timeoutSeconds },
			});
		const items = [fileItem(Buffer.from('%PDF'), 'm.pdf', 'application/pdf')];

		it('polls with growing intervals until active and outputs the final document', async () => {
			captureUpload();
			const scope = nock(TEST_BASE_URL)
				.get(`${PATH}/31`)
				.reply(200, { data: created })
				.get(`${PATH}/31`)
				.reply(200, { data: created })
				.get(`${PATH}/31`)
				.reply(200, { data: { ...created, status: 'active' } });
			const [output] = await router.call(
				createContext({ parameters: parameters(), items }).context,
			);
			expect(output).toEqual([{ json: { ...created, status: 'active' }, pairedItem: { item: 0 } }]);
			expect(clock.sleeps.filter((ms) => ms > 0)).toEqual([1000, 1500, 2250]);
			scope.done();
		});

		it('ends on a status that is not a working one, and says so in the item', async () => {
			captureUpload();
			const scope = nock(TEST_BASE_URL)
				.get(`${PATH}/31`)
				.reply(200, { data: { ...created, status: 'pending' } })
				.get(`${PATH}/31`)
				.reply(200, { data: { ...created, status: 'archived' } });
			const [output] = await router.call(
				createContext({ parameters: parameters(), items }).context,
			);
			expect(output).toEqual([
				{
					json: {
						...created,
						status: 'archived',
						waitNote: expect.stringContaining(
							'Stopped waiting: status "archived" is not one of processing, pending',
						),
					},
					pairedItem: { item: 0 },
				},
			]);
			scope.done();
		});

		it('a failed document is an error naming it and its status', async () => {
			captureUpload();
			nock(TEST_BASE_URL)
				.get(`${PATH}/31`)
				.reply(200, { data: { ...created, status: 'failed' } });
			await expect(
				router.call(createContext({ parameters: parameters(), items }).context),
			).rejects.toThrow('Document 31 ("Manual") failed to process; its last status is "failed"');
		});

		it('a timeout is an error naming the document and its last status; with Continue On Fail an error item', async () => {
			captureUpload();
			nock(TEST_BASE_URL).get(`${PATH}/31`).times(10).reply(200, { data: created });
			const [output] = await router.call(
				createContext({ parameters: parameters(5), items, continueOnFail: true }).context,
			);
			expect(output).toEqual([
				{
					json: {
						error:
							'Document 31 ("Manual") was not processed within 5 s; its last status is "processing"',
					},
					pairedItem: { item: 0 },
				},
			]);
		});
	});

	describe("a file in n8n's binary store (filesystem or database mode)", () => {
		// 300 KB of varied bytes: several 64 KiB chunks, the last one partial
		const stored = Buffer.from(
			Array.from({ length: 300_000 }, (_, n) => (n * 31 + (n >> 8)) & 0xff),
		);
		const parameters = createDocument({
			name: 'Handbook',
			type: 'auto',
			binaryPropertyName: 'data',
		});
		/** An upload of the name, the type and the whole stored file. */
		const expectWhole = (upload: Upload) =>
			expectParts(
				upload,
				[
					['name', 'Handbook'],
					['type', 'pdf'],
				],
				{ filename: 'handbook.pdf', contentType: 'application/pdf', content: stored },
			);

		it('is streamed from the store into the file part, byte for byte, never loaded whole', async () => {
			const uploads: Upload[] = [];
			recordUpload(nock(TEST_BASE_URL), uploads, 201, { data: created });
			const { context, binaryCalls, sent } = createContext({
				parameters,
				items: [storedItem('filesystem-v2:wf/1/binary_data/abc', '293 kB')],
				storedBinaries: { 'filesystem-v2:wf/1/binary_data/abc': stored },
			});
			const [output] = await router.call(context);
			expect(output).toEqual([{ json: created, pairedItem: { item: 0 } }]);
			expect(uploads).toHaveLength(1);
			expectWhole(uploads[0]);
			expect(Number(uploads[0].contentLength)).toBe(uploads[0].body.length);
			expect(binaryCalls).toEqual(['stream filesystem-v2:wf/1/binary_data/abc']);
			expect(sent[0].disableFollowRedirect).toBe(true);
		});

		it('a retry after a 429 reads the file again and sends it whole', async () => {
			const uploads: Upload[] = [];
			const scope = nock(TEST_BASE_URL);
			recordUpload(scope, uploads, 429, { message: 'Too Many Attempts.', retry_after: 0 });
			recordUpload(scope, uploads, 201, { data: created });
			const { context, binaryCalls } = createContext({
				parameters,
				items: [storedItem('db:1', '293 kB')],
				storedBinaries: { 'db:1': stored },
			});
			await router.call(context);
			expect(binaryCalls).toEqual(['stream db:1', 'stream db:1']);
			expect(uploads).toHaveLength(2);
			for (const upload of uploads) expectWhole(upload);
		});

		it('an oversized stored file is refused from its metadata, unread and unsent', async () => {
			const big = Buffer.alloc(20 * 1024 * 1024 + 1);
			const { context, binaryCalls, sent } = createContext({
				parameters,
				items: [storedItem('fs:big', '293 kB')],
				storedBinaries: { 'fs:big': big },
			});
			await expect(router.call(context)).rejects.toThrow(
				'The file in binary property "data" is 20.0 MB; the service accepts at most 20 MB',
			);
			expect(binaryCalls).toEqual([]);
			expect(sent).toHaveLength(0);
		});
	});
});
