/**
 * Document → Create when the answer is lost: the document is looked up by its
 * name in its knowledgebase among those created since the upload; one match
 * is the success, none uploads once more (the whole file again, in a new
 * multipart body), several fail the item listing them. A refusal is never
 * sent again.
 */
import nock from 'nock';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import type { Upload } from '../../actions/document/createFixtures';
import * as fixtures from '../../actions/document/createFixtures';

const { PATH, recordUpload } = fixtures;
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const laravel = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
const doc = (id: number, name: string, createdMs = T0) => ({
	id,
	name,
	description: null,
	type: 'pdf',
	type_label: 'PDF',
	status: 'processing',
	status_label: 'Processing',
	created_at: laravel(createdMs),
	updated_at: laravel(createdMs),
});

const parameters = fixtures.createDocument({
	name: 'Handbook',
	type: 'auto',
	binaryPropertyName: 'data',
	options: { description: 'For support' },
});
// 200 KB of varied bytes in n8n's binary store: several chunks, read through a stream per attempt
const stored = Buffer.from(Array.from({ length: 200_000 }, (_, n) => (n * 37 + (n >> 7)) & 0xff));
const STORE_ID = 'filesystem-v2:wf/1/binary_data/handbook';
const handbookItem = fixtures.storedItem(STORE_ID, '195 kB');

function runStored(options: { continueOnFail?: boolean; params?: object } = {}) {
	const made = createContext({
		parameters: { ...parameters, ...options.params },
		items: [handbookItem],
		storedBinaries: { [STORE_ID]: stored },
		continueOnFail: options.continueOnFail,
	});
	return { ...made, output: router.call(made.context).then((out) => out[0]) };
}

/** The parts of one upload: name, description, type and the whole file. */
function expectWholeUpload(sent: Upload) {
	fixtures.expectParts(
		sent,
		[
			['name', 'Handbook'],
			['description', 'For support'],
			['type', 'pdf'],
		],
		{ filename: 'handbook.pdf', contentType: 'application/pdf', content: stored },
	);
}

describe('Document → Create when the answer is lost', () => {
	fakeClockPerTest(T0);

	it('a 502 after storing: one upload, then the list; the one document of that name created since is the success', async () => {
		const uploads: Upload[] = [];
		const scope = nock(TEST_BASE_URL);
		recordUpload(scope, uploads, 502, 'Bad Gateway');
		scope.get(PATH).reply(200, {
			data: [doc(2, 'Handbook', T0 - 20 * 3600_000), doc(7, 'Handbook'), doc(8, 'Prices')],
		});
		const { output, binaryCalls } = runStored();
		expect(await output).toEqual([
			{
				json: { ...doc(7, 'Handbook'), created_by_earlier_attempt: true },
				pairedItem: { item: 0 },
			},
		]);
		scope.done();
		expect(uploads).toHaveLength(1);
		expectWholeUpload(uploads[0]);
		expect(binaryCalls).toEqual([`stream ${STORE_ID}`]);
	});

	it.each([
		['2 minutes', 2 * 60_000],
		['1 hour', 3600_000],
		['14 hours', 14 * 3600_000],
	])(
		'a document of that name made %s before the attempt is not adopted: uploaded once more',
		async (_label, before) => {
			const uploads: Upload[] = [];
			const scope = nock(TEST_BASE_URL);
			recordUpload(scope, uploads, 502, 'Bad Gateway');
			scope.get(PATH).reply(200, { data: [doc(2, 'Handbook', T0 - before)] });
			recordUpload(scope, uploads, 201, {
				message: 'Document created successfully.',
				data: doc(9, 'Handbook'),
			});
			const { output } = runStored();
			expect(await output).toEqual([{ json: doc(9, 'Handbook'), pairedItem: { item: 0 } }]);
			scope.done();
			expect(uploads).toHaveLength(2);
		},
	);

	it('a document of that name listed without a creation time is neither adopted nor uploaded again: the item names it', async () => {
		const uploads: Upload[] = [];
		const scope = nock(TEST_BASE_URL);
		recordUpload(scope, uploads, 502, 'Bad Gateway');
		scope.get(PATH).reply(200, { data: [{ id: 2, name: 'Handbook', status: 'active' }] });
		const { output } = runStored();
		await expect(output).rejects.toThrow(
			'whose creation time cannot show whether this item made it (ID 2, no creation time)',
		);
		scope.done();
		expect(uploads).toHaveLength(1);
	});

	it('a 504 and no such document: uploaded once more, the whole file in both attempts', async () => {
		const uploads: Upload[] = [];
		const scope = nock(TEST_BASE_URL);
		recordUpload(scope, uploads, 504, 'Gateway Timeout');
		scope.get(PATH).reply(200, { data: [doc(8, 'Prices')] });
		recordUpload(scope, uploads, 201, {
			message: 'Document created successfully.',
			data: doc(9, 'Handbook'),
		});
		const { output, binaryCalls } = runStored();
		expect(await output).toEqual([{ json: doc(9, 'Handbook'), pairedItem: { item: 0 } }]);
		scope.done();
		expect(uploads).toHaveLength(2);
		for (const sent of uploads) expectWholeUpload(sent);
		// the file is read from the store again for the second attempt
		expect(binaryCalls).toEqual([`stream ${STORE_ID}`, `stream ${STORE_ID}`]);
	});

	it('a dropped connection and no such document: an inline (base64) file is sent whole again', async () => {
		const content = Buffer.from('Opening hours: 9-17\nPrices: see list\n');
		const seen: Upload[] = [];
		const scope = nock(TEST_BASE_URL)
			.post(PATH)
			.reply(function (_uri, body) {
				seen.push({
					contentType: String(this.req.headers['content-type']),
					contentLength: String(this.req.headers['content-length']),
					body: fixtures.asBuffer(body),
				});
				this.req.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
				return [201, {}];
			})
			.get(PATH)
			.reply(200, { data: [] });
		recordUpload(scope, seen, 201, { data: doc(9, 'Notes') });
		const { context } = createContext({
			parameters: { ...parameters, name: 'Notes', options: {} },
			items: [fixtures.fileItem(content, 'notes.txt', 'text/plain')],
		});
		const [output] = await router.call(context);
		expect(output).toEqual([{ json: doc(9, 'Notes'), pairedItem: { item: 0 } }]);
		scope.done();
		expect(seen).toHaveLength(2);
		for (const sent of seen)
			fixtures.expectParts(
				sent,
				[
					['name', 'Notes'],
					['type', 'txt'],
				],
				{ filename: 'notes.txt', contentType: 'text/plain', content },
			);
	});

	it('several of that name created since: the item fails and lists them, nothing is uploaded again', async () => {
		const uploads: Upload[] = [];
		const scope = nock(TEST_BASE_URL);
		recordUpload(scope, uploads, 500, { error: 'Failed to create document. Please try again.' });
		scope.get(PATH).reply(200, { data: [doc(7, 'Handbook'), doc(9, 'Handbook', T0 + 1000)] });
		const { output } = runStored();
		await expect(output).rejects.toThrow(
			'The answer to creating the document was lost, and 2 documents with that name exist (IDs 7, 9)',
		);
		scope.done();
		expect(uploads).toHaveLength(1);
	});

	it.each([
		[404, { error: 'Knowledgebase not found.' }, 'Knowledgebase not found.'],
		[
			422,
			{ message: 'The given data was invalid.', errors: { file: ['The file must be a file.'] } },
			'file: The file must be a file.',
		],
	])(
		'a refusal (%i) is no lost answer: no lookup, never sent again',
		async (status, answer, message) => {
			const uploads: Upload[] = [];
			const scope = nock(TEST_BASE_URL);
			recordUpload(scope, uploads, status, answer);
			const { output } = runStored();
			await expect(output).rejects.toThrow(message);
			scope.done();
			expect(uploads).toHaveLength(1);
			expect(nock.pendingMocks()).toEqual([]);
		},
	);

	it("the lookup fails too: the upload's own error, saying what to check, with the lookup's failure", async () => {
		const scope = nock(TEST_BASE_URL)
			.post(PATH)
			.reply(502, 'Bad Gateway')
			.get(PATH)
			.reply(403, { message: 'This action is unauthorized.' });
		const { output } = runStored({ continueOnFail: false });
		const failure = (await output.catch((error: unknown) => error)) as Error & {
			description?: string;
		};
		expect(failure).toBeInstanceOf(Error);
		expect(failure.message).not.toContain('unauthorized');
		expect(failure.description).toContain(
			'The request was sent and may have been carried out; look for the document in the list before running it again.',
		);
		expect(failure.description).toContain(
			'Looking for the document afterwards failed too (This action is unauthorized.)',
		);
		scope.done();
	});

	it('a website document (JSON) whose answer was lost is found by name the same way', async () => {
		const site = { ...doc(5, 'Site'), type: 'website', type_label: 'Website' };
		const body = { name: 'Site', type: 'website', url: 'https://example.com/faq' };
		const scope = nock(TEST_BASE_URL)
			.post(PATH, body)
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
			.get(PATH)
			.reply(200, { data: [site] });
		const { context } = createContext({
			parameters: fixtures.website({ websiteSource: 'url', url: 'https://example.com/faq' }),
		});
		const [output] = await router.call(context);
		expect(output).toEqual([
			{ json: { ...site, created_by_earlier_attempt: true }, pairedItem: { item: 0 } },
		]);
		scope.done();
	});

	it('Wait Until Processed: the document found after a lost answer is waited for and keeps its marker', async () => {
		const uploads: Upload[] = [];
		const scope = nock(TEST_BASE_URL);
		recordUpload(scope, uploads, 502, 'Bad Gateway');
		scope
			.get(PATH)
			.reply(200, { data: [doc(7, 'Handbook')] })
			.get(`${PATH}/7`)
			.reply(200, { data: { ...doc(7, 'Handbook'), status: 'active' } });
		const { output } = runStored({
			params: { options: { description: 'For support', waitUntilProcessed: true } },
		});
		expect(await output).toEqual([
			{
				json: { ...doc(7, 'Handbook'), status: 'active', created_by_earlier_attempt: true },
				pairedItem: { item: 0 },
			},
		]);
		scope.done();
		expect(uploads).toHaveLength(1);
	});
});
