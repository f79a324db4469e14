/**
 * Creates whose answer was lost: the object is looked up by its name among
 * those created since the attempt; one match is the success, none sends the
 * create once more, several fail the item listing them.
 */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { item, run } from '../../actions/helpers';
import { createParams } from '../../actions/tool/fixtures';

const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const sql = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
const kb = (id: number, name: string, createdMs = T0) => ({
	id,
	name,
	status: 'empty',
	created_at: sql(createdMs),
});

describe('Knowledgebase → Create and Mid Call Tool → Create when the answer is lost', () => {
	fakeClockPerTest(T0);

	it('a 502 after storing: the one knowledgebase of that name created since is the success, nothing is sent twice', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/knowledgebases', { name: 'FAQ' })
			.once()
			.reply(502, 'Bad Gateway')
			.get('/api/user/knowledgebases')
			.reply(200, { data: [kb(3, 'FAQ', T0 - 20 * 3600_000), kb(7, 'FAQ'), kb(8, 'Other')] });
		expect(await run({ resource: 'knowledgebase', operation: 'create', name: 'FAQ' })).toEqual([
			item({ ...kb(7, 'FAQ'), created_by_earlier_attempt: true }),
		]);
		scope.done();
	});

	it('a dropped connection and no such knowledgebase: the create is sent once more', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/knowledgebases', { name: 'FAQ' })
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
			.get('/api/user/knowledgebases')
			.reply(200, { data: [kb(8, 'Other')] })
			.post('/api/user/knowledgebases', { name: 'FAQ' })
			.reply(201, { message: 'Knowledgebase created successfully', data: kb(9, 'FAQ') });
		expect(await run({ resource: 'knowledgebase', operation: 'create', name: 'FAQ' })).toEqual([
			item(kb(9, 'FAQ')),
		]);
		scope.done();
	});

	it('several of that name created since: the item fails and lists them', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/knowledgebases')
			.reply(504, 'Gateway Timeout')
			.get('/api/user/knowledgebases')
			.reply(200, { data: [kb(7, 'FAQ'), kb(9, 'FAQ', T0 + 1000)] });
		await expect(
			run({ resource: 'knowledgebase', operation: 'create', name: 'FAQ' }),
		).rejects.toThrow(
			'The answer to creating the knowledgebase was lost, and 2 knowledgebases with that name exist (IDs 7, 9)',
		);
	});

	it('a refusal (422) is no lost answer: no lookup', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/knowledgebases')
			.reply(422, {
				message: 'The name has already been taken.',
				errors: { name: ['The name has already been taken.'] },
			});
		await expect(
			run({ resource: 'knowledgebase', operation: 'create', name: 'FAQ' }),
		).rejects.toThrow('The name has already been taken.');
	});

	it('Mid Call Tool → Create: a 500 after storing, found by name', async () => {
		const tool = { id: 4, name: 'check_stock', created_at: sql(T0) };
		nock(TEST_BASE_URL)
			.post('/api/user/tools')
			.reply(500, { message: 'Server Error' })
			.get('/api/user/tools')
			.reply(200, { data: [tool] });
		const output = await run({ ...createParams, name: 'check_stock', additionalFields: {} });
		expect(output).toEqual([item({ ...tool, created_by_earlier_attempt: true })]);
	});
});
