import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { KNOWLEDGEBASE as kb } from './fixtures';
import { item, run } from '../helpers';

describe('Knowledgebase → Create', () => {
	it('Knowledgebase → Create sends name and description', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/knowledgebases', { name: 'FAQ', description: 'Questions' })
			.reply(201, { message: 'Created', data: kb });
		expect(
			await run({
				resource: 'knowledgebase',
				operation: 'create',
				name: 'FAQ',
				description: 'Questions',
			}),
		).toEqual([item(kb)]);
		scope.done();
	});

	it('Knowledgebase → Create leaves out an empty description', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/knowledgebases', { name: 'FAQ' })
			.reply(201, { data: kb });
		await run({ resource: 'knowledgebase', operation: 'create', name: 'FAQ', description: '' });
		scope.done();
	});

	it.each([
		[{ name: '' }, 'Name is required'],
		[{ name: 'x'.repeat(256) }, 'Name is too long: 256 characters, at most 255 are allowed'],
		[{ name: 'FAQ', description: 'y'.repeat(300) }, 'Description is too long: 300 characters'],
	])('Knowledgebase → Create refuses %#', async (fields, message) => {
		await expect(
			run({ resource: 'knowledgebase', operation: 'create', ...fields }),
		).rejects.toThrow(message);
	});
});
