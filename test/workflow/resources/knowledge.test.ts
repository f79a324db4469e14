/**
 * Knowledgebase and Document: every operation, run as real workflows
 * (n8n-core) against the simulator, documents from links and from files n8n
 * keeps on disk.
 */
import { createHash } from 'node:crypto';

import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import { runWorkflow } from '../helpers/runWorkflow';
import {
	actionWorkflow,
	byId,
	ROWS,
	simCredentials,
	simulatorForTests,
} from '../helpers/workflows';

const { exercised, run, op } = operationRunner();

describe('Knowledgebase and Document: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests({ docProcessingMs: 50 });

	it('Knowledgebase and Document: lifecycle, a website document processed', async () => {
		const [kb] = await op(sim, {
			resource: 'knowledgebase',
			operation: 'create',
			name: 'Workflow KB',
			description: 'made by a test',
		});
		const kbRef = byId(kb.id);
		expect(
			(await op(sim, { resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }))[0]
				.name,
		).toBe('Workflow KB');
		await op(sim, {
			resource: 'knowledgebase',
			operation: 'update',
			knowledgebaseId: kbRef,
			updateFields: { name: 'Renamed KB' },
		});
		expect(
			(await op(sim, { resource: 'knowledgebase', operation: 'getMany', returnAll: true })).map(
				(k) => k.name,
			),
		).toContain('Renamed KB');

		const [doc] = await op(sim, {
			resource: 'document',
			operation: 'create',
			knowledgebaseId: kbRef,
			name: 'Site',
			type: 'website',
			websiteSource: 'links',
			links: { link: [{ link: 'https://example.com/a' }, { link: 'https://example.com/b' }] },
			options: { waitUntilProcessed: true, timeoutSeconds: 30 },
		});
		expect(doc.status).toBe('active');
		const docRef = byId(doc.id);
		expect(
			(
				await op(sim, {
					resource: 'document',
					operation: 'get',
					knowledgebaseId: kbRef,
					documentId: docRef,
				})
			)[0].id,
		).toBe(doc.id);
		expect(
			(
				await op(sim, {
					resource: 'document',
					operation: 'getMany',
					knowledgebaseId: kbRef,
					returnAll: true,
				})
			).map((d) => d.id),
		).toEqual([doc.id]);
		await op(sim, {
			resource: 'document',
			operation: 'update',
			knowledgebaseId: kbRef,
			documentId: docRef,
			updateFields: { description: 'updated' },
		});
		expect(sim.state.documents.find((d: any) => d.id === doc.id).description).toBe('updated');
		await op(sim, {
			resource: 'document',
			operation: 'delete',
			knowledgebaseId: kbRef,
			documentId: docRef,
		});
		expect(
			(await op(sim, { resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }))[0]
				.status,
		).toBe('empty');

		await op(sim, { resource: 'knowledgebase', operation: 'delete', knowledgebaseId: kbRef });
		await expect(
			op(sim, { resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }),
		).rejects.toThrow('Knowledgebase not found.');
	});

	it('Document: Create from binary files stored on disk by n8n (filesystem mode), uploaded byte for byte', async () => {
		const text = 'Opening hours: Monday to Friday, 9 to 17.\n'.repeat(50);
		const pdf = Buffer.concat([
			Buffer.from('%PDF-1.4\n'),
			Buffer.alloc(4096, 7),
			Buffer.from('\n%%EOF\n'),
		]);
		const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
		const before = sim.log.length;
		const items = await run(
			sim,
			{
				resource: 'document',
				operation: 'create',
				knowledgebaseId: byId(1),
				name: '={{ $json.title }}',
				type: 'auto',
				binaryPropertyName: 'data',
				options: { waitUntilProcessed: true, timeoutSeconds: 30 },
			},
			{
				rows: [{ title: 'Opening hours' }, { title: 'Price list' }],
				files: [
					{ data: { text, fileName: 'hours.txt', mimeType: 'text/plain' } },
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
			[
				{
					field: 'file',
					filename: 'hours.txt',
					contentType: 'text/plain',
					size: Buffer.byteLength(text),
					sha256: sha(text),
				},
			],
			[
				{
					field: 'file',
					filename: 'prices.pdf',
					contentType: 'application/pdf',
					size: pdf.length,
					sha256: sha(pdf),
				},
			],
		]);
	});

	it('Document: the Rows node keeps the files on disk (binary id, no base64 in the item)', async () => {
		const result = await runWorkflow(
			actionWorkflow(
				{
					resource: 'document',
					operation: 'create',
					knowledgebaseId: byId(1),
					name: 'Notes',
					type: 'txt',
					binaryPropertyName: 'file',
				},
				{
					rows: [{}],
					files: [{ file: { text: 'note', fileName: 'notes.txt', mimeType: 'text/plain' } }],
				},
			),
			{ credentials: simCredentials(sim) },
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
