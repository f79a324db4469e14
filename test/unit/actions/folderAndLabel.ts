/**
 * Folder and Label are twins: the same operations on /api/user/folder and
 * /api/user/label, answered alike. Each operation's suite is written once
 * here, a describe.each over both resources; the operation's test file
 * (test/unit/actions/<folder|label>/<operation>.test.ts, which
 * test/unit/layout.test.ts requires) runs it for its own resource.
 */
import nock from 'nock';

import { TEST_BASE_URL } from '../../helpers/context';
import { item, items, rl, run } from './helpers';

const TWINS = [
	{ resource: 'folder', noun: 'Folder' },
	{ resource: 'label', noun: 'Label' },
] as const;

export type Twin = (typeof TWINS)[number]['resource'];

/** The rows of a suite's describe.each that a test file runs: its own resource's. */
const rows = (twin: Twin) => TWINS.filter((row) => row.resource === twin);

const page = (data: object[], current = 1, last = 1) => ({
	current_page: current,
	data,
	last_page: last,
	per_page: 100,
	total: data.length,
	next_page_url: current < last ? `${TEST_BASE_URL}/x?page=${current + 1}` : null,
});

/** Create: `createTests('folder')` in folder/create.test.ts, `createTests('label')` in label/create.test.ts. */
export function createTests(twin: Twin) {
	describe.each(rows(twin))('$noun → Create', ({ resource, noun }) => {
		it(`Create posts {name, color} to /api/user/${resource} and outputs the record`, async () => {
			const record = { id: 7, name: 'Sales', color: 'teal', assistants_count: 0 };
			const scope = nock(TEST_BASE_URL)
				.post(`/api/user/${resource}`, { name: 'Sales', color: 'teal' })
				.reply(201, { message: `${noun} created successfully`, data: record });
			expect(
				await run({ resource, operation: 'create', name: ' Sales ', options: { color: 'teal' } }),
			).toEqual([item(record)]);
			scope.done();
		});

		it('Create without a color sends the name only; a name taken answers with the service message', async () => {
			nock(TEST_BASE_URL)
				.post(`/api/user/${resource}`, { name: 'Sales' })
				.reply(422, {
					message: 'The name has already been taken.',
					errors: { name: ['The name has already been taken.'] },
				});
			await expect(
				run({ resource, operation: 'create', name: 'Sales', options: {} }),
			).rejects.toThrow('The name has already been taken.');
		});

		it('Create refuses an empty name, a name over 255 characters and an unknown color before sending', async () => {
			await expect(run({ resource, operation: 'create', name: '  ', options: {} })).rejects.toThrow(
				'Name',
			);
			await expect(
				run({ resource, operation: 'create', name: 'x'.repeat(256), options: {} }),
			).rejects.toThrow('255');
			await expect(
				run({ resource, operation: 'create', name: 'A', options: { color: 'black' } }),
			).rejects.toThrow(/Color.*amber/);
		});
	});
}

/** Delete: `deleteTests('folder')` in folder/delete.test.ts, `deleteTests('label')` in label/delete.test.ts. */
export function deleteTests(twin: Twin) {
	describe.each(rows(twin))('$noun → Delete', ({ resource, noun }) => {
		it('Delete outputs deleted with the message; an unknown one fails with the service message', async () => {
			nock(TEST_BASE_URL)
				.delete(`/api/user/${resource}/3`)
				.reply(200, { message: `${noun} deleted successfully` });
			expect(
				await run({ resource, operation: 'delete', [`${resource}Id`]: rl('3', 'id') }),
			).toEqual([item({ deleted: true, id: 3, message: `${noun} deleted successfully` })]);
			nock(TEST_BASE_URL)
				.delete(`/api/user/${resource}/4`)
				.reply(404, { message: `${noun} not found` });
			await expect(
				run({ resource, operation: 'delete', [`${resource}Id`]: rl('4') }),
			).rejects.toThrow(`${noun} not found`);
		});
	});
}

/** Get Many: `getManyTests('folder')` in folder/getMany.test.ts, `getManyTests('label')` in label/getMany.test.ts. */
export function getManyTests(twin: Twin) {
	describe.each(rows(twin))('$noun → Get Many', ({ resource }) => {
		it('Get Many reads every page of the list', async () => {
			const scope = nock(TEST_BASE_URL)
				.get(`/api/user/${resource}s`)
				.query({ per_page: 100, page: 1 })
				.reply(200, page([{ id: 1, name: 'A' }], 1, 2))
				.get(`/api/user/${resource}s`)
				.query({ per_page: 100, page: 2 })
				.reply(200, page([{ id: 2, name: 'B' }], 2, 2));
			expect(await run({ resource, operation: 'getMany', returnAll: true })).toEqual(
				items([
					{ id: 1, name: 'A' },
					{ id: 2, name: 'B' },
				]),
			);
			scope.done();
		});

		it('Get Many with a limit asks for that many', async () => {
			const scope = nock(TEST_BASE_URL)
				.get(`/api/user/${resource}s`)
				.query({ per_page: 1, page: 1 })
				.reply(200, page([{ id: 1, name: 'A' }], 1, 3));
			expect(await run({ resource, operation: 'getMany', returnAll: false, limit: 1 })).toEqual(
				items([{ id: 1, name: 'A' }]),
			);
			scope.done();
		});
	});
}

/** Update: `updateTests('folder')` in folder/update.test.ts, `updateTests('label')` in label/update.test.ts. */
export function updateTests(twin: Twin) {
	describe.each(rows(twin))('$noun → Update', ({ resource, noun }) => {
		it('Update sends only the fields given; an empty update is refused', async () => {
			const scope = nock(TEST_BASE_URL)
				.put(`/api/user/${resource}/3`, { color: 'red' })
				.reply(200, {
					message: `${noun} updated successfully`,
					data: { id: 3, name: 'A', color: 'red' },
				});
			expect(
				await run({
					resource,
					operation: 'update',
					[`${resource}Id`]: rl('3'),
					updateFields: { color: 'red' },
				}),
			).toEqual([item({ id: 3, name: 'A', color: 'red' })]);
			scope.done();
			await expect(
				run({ resource, operation: 'update', [`${resource}Id`]: rl('3'), updateFields: {} }),
			).rejects.toThrow('Update Fields is empty');
		});
	});
}
