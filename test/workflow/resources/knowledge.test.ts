/**
 * Knowledgebase and Document: every operation, run as real workflows
 * (n8n-core) against the simulator, documents from links and from files n8n
 * keeps on disk.
 */
import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import {
	byId,
	DOCUMENT_UPLOAD,
	loggedUpload,
	ROWS,
	runAction,
	simulatorForTests,
	textFile,
} from '../helpers/workflows';

const { exercised, run, operations } = operationRunner();

describe('Knowledgebase and Document: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests({ docProcessingMs: 50 });
	const knowledgebases = operations(sim, 'knowledgebase');
	const documents = operations(sim, 'document');

	it('Knowledgebase and Document: lifecycle, a website document processed', async () => {
		const [kb] = await knowledgebases('create', {
			name: 'Workflow KB',
			description: 'made by a test',
		});
		const kbRef = byId(kb.id);
		expect((await knowledgebases('get', { knowledgebaseId: kbRef }))[0].name).toBe('Workflow KB');
		await knowledgebases('update', {
			knowledgebaseId: kbRef,
			updateFields: { name: 'Renamed KB' },
		});
		expect((await knowledgebases('getMany', { returnAll: true })).map((k) => k.name)).toContain(
			'Renamed KB',
		);

		const [doc] = await documents('create', {
			knowledgebaseId: kbRef,
			name: 'Site',
			type: 'website',
			websiteSource: 'links',
			links: { link: [{ link: 'https://example.com/a' }, { link: 'https://example.com/b' }] },
			options: { waitUntilProcessed: true, timeoutSeconds: 30 },
		});
		expect(doc.status).toBe('active');
		const docRef = byId(doc.id);
		expect((await documents('get', { knowledgebaseId: kbRef, documentId: docRef }))[0].id).toBe(
			doc.id,
		);
		expect(
			(await documents('getMany', { knowledgebaseId: kbRef, returnAll: true })).map((d) => d.id),
		).toEqual([doc.id]);
		await documents('update', {
			knowledgebaseId: kbRef,
			documentId: docRef,
			updateFields: { description: 'updated' },
		});
		expect(sim.state.documents.find((d: any) => d.id === doc.id).description).toBe('updated');
		await documents('delete', { knowledgebaseId: kbRef, documentId: docRef });
		expect((await knowledgebases('get', { knowledgebaseId: kbRef }))[0].status).toBe('empty');

		await knowledgebases('delete', { knowledgebaseId: kbRef });
		await expect(knowledgebases('get', { knowledgebaseId: kbRef })).rejects.toThrow(
			'Knowledgebase not found.',
		);
	});

	it('Document: Create from binary files stored on disk by n8n (filesystem mode), uploaded byte for byte', async () => {
		const text = 'Opening hours: Monday to Friday, 9 to 17.\n'.repeat(50);
		const pdf = Buffer.concat([
			Buffer.from('%PDF-1.4\n'),
			Buffer.alloc(4096, 7),
			Buffer.from('\n%%EOF\n'),
		]);
		const before = sim.log.length;
		const items = await run(
			sim,
			{
				...DOCUMENT_UPLOAD,
				name: '={{ $json.title }}',
				options: { waitUntilProcessed: true, timeoutSeconds: 30 },
			},
			{
				rows: [{ title: 'Opening hours' }, { title: 'Price list' }],
				files: [
					{ data: textFile(text, 'hours.txt') },
					{
						data: {
							base64: pdf.toString('base64'),
							fileName: 'prices.pdf',
							mimeType: 'application/pdf',
						},
					},
				],
			},
		);
		expect(items.map((i) => [i.json.name, i.json.type, i.json.status, i.pairedItem])).toEqual([
			['Opening hours', 'txt', 'active', { item: 0 }],
			['Price list', 'pdf', 'active', { item: 1 }],
		]);
		const uploads = sim.log
			.slice(before)
			.filter((e) => e.method === 'POST' && e.path === '/api/user/knowledgebases/1/documents');
		expect(uploads.map((e: any) => e.body.files)).toEqual([
			[loggedUpload('hours.txt', 'text/plain', text)],
			[loggedUpload('prices.pdf', 'application/pdf', pdf)],
		]);
	});

	it('Document: the Rows node keeps the files on disk (binary id, no base64 in the item)', async () => {
		const result = await runAction(
			sim,
			{ ...DOCUMENT_UPLOAD, name: 'Notes', type: 'txt', binaryPropertyName: 'file' },
			{ rows: [{}], files: [{ file: textFile('note', 'notes.txt') }] },
		);
		exercised.add('document:create');
		expect(result.error).toBeUndefined();
		const [row] = result.outputOf(ROWS);
		expect(row.binary?.file).toMatchObject({
			fileName: 'notes.txt',
			mimeType: 'text/plain',
			data: 'filesystem-v2',
			bytes: 4,
		});
		expect(row.binary?.file.id).toMatch(/^filesystem-v2:/);
	});

	it('ran every operation of Knowledgebase and Document', () => {
		expect(ownRuns('knowledge', exercised)).toEqual([...RESOURCE_FILES.knowledge].sort());
	});
});
