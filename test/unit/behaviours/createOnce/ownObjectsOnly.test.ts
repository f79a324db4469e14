/**
 * After a lost answer, a create adopts an object only when it can be shown to
 * be the attempt's own: its name, created (a time with its zone) no earlier
 * than the attempt, within a minute's margin for the two clocks. Per create
 * operation that looks its object up by name: a same-name object made 2
 * minutes, 1 hour or 14 hours before is never adopted (the create is sent
 * once more: nothing of this attempt is stored); one without a creation
 * time, or with a time without a zone, is neither adopted nor followed by a
 * second create (the item fails naming it); the attempt's own object is
 * adopted after a 502, a broken connection and a timeout.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { TEST_BASE_URL } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { minimal } from '../../actions/assistant/fixtures';
import { run } from '../../actions/helpers';

const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
/** Laravel's JSON time: ISO 8601 in UTC with microseconds. */
const laravel = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Operation {
	resource: string;
	/** The object's name (a tool's name is snake case). */
	name: string;
	/** The node's parameters of a create of that name. */
	parameters: IDataObject;
	/** Where the create is posted and where the look-up reads. */
	post: string;
	list: string;
}

const OPERATIONS: Operation[] = [
	{
		resource: 'assistant',
		name: 'Lisa',
		parameters: minimal.pipeline,
		post: '/api/user/assistant',
		list: '/api/user/assistants/get',
	},
	{
		resource: 'knowledgebase',
		name: 'Autumn',
		parameters: { operation: 'create', name: 'Autumn' },
		post: '/api/user/knowledgebases',
		list: '/api/user/knowledgebases',
	},
	{
		resource: 'tool',
		name: 'autumn_check',
		parameters: {
			operation: 'create',
			name: 'autumn_check',
			description: 'A tool',
			endpoint: 'https://example.com/t',
			method: 'GET',
			additionalFields: {},
		},
		post: '/api/user/tools',
		list: '/api/user/tools',
	},
	{
		resource: 'campaign',
		name: 'Autumn',
		parameters: {
			operation: 'create',
			name: 'Autumn',
			assistantId: { __rl: true, mode: 'id', value: '2' },
			additionalFields: {},
		},
		post: '/api/user/campaigns',
		list: '/api/user/campaigns',
	},
	{
		resource: 'folder',
		name: 'Autumn',
		parameters: { operation: 'create', name: 'Autumn', options: {} },
		post: '/api/user/folder',
		list: '/api/user/folders',
	},
	{
		resource: 'label',
		name: 'Autumn',
		parameters: { operation: 'create', name: 'Autumn', options: {} },
		post: '/api/user/label',
		list: '/api/user/labels',
	},
];

/** The list as the service pages it (one page). */
const page = (data: IDataObject[]) => ({
	data,
	current_page: 1,
	last_page: 1,
	next_page_url: null,
	per_page: 100,
	total: data.length,
});

const lost = {
	'a 502': (scope: nock.Interceptor) => scope.reply(502, 'Bad Gateway'),
	'a broken connection': (scope: nock.Interceptor) =>
		scope.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
	'a timeout': (scope: nock.Interceptor) =>
		scope.replyWithError(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
};

describe('a create whose answer is lost adopts only its own object', () => {
	fakeClockPerTest(T0);

	describe.each(OPERATIONS.map((op) => [op.resource, op] as const))('%s → Create', (_, op) => {
		const parameters = { resource: op.resource, ...op.parameters };
		const NAME = op.name;

		it.each(Object.keys(lost) as Array<keyof typeof lost>)(
			'after %s: the object of that name created after the attempt is the item, nothing sent twice',
			async (how) => {
				const own = { id: 7, name: NAME, created_at: laravel(T0 + 1_000) };
				const older = { id: 3, name: NAME, created_at: laravel(T0 - HOUR) };
				const scope = lost[how](nock(TEST_BASE_URL).post(op.post).once());
				scope
					.get(op.list)
					.query(true)
					.reply(200, page([older, own, { id: 8, name: 'Other', created_at: laravel(T0) }]));
				const [output] = await run(parameters);
				expect(output.json).toMatchObject({ id: 7, name: NAME, created_by_earlier_attempt: true });
				expect(nock.isDone()).toBe(true);
			},
		);

		it.each([
			['2 minutes', 2 * MINUTE],
			['1 hour', HOUR],
			['14 hours', 14 * HOUR],
		])(
			'a same-name object made %s before the attempt is not adopted: the create is sent once more',
			async (_label, before) => {
				const older = { id: 3, name: NAME, created_at: laravel(T0 - before) };
				const made = { id: 9, name: NAME, created_at: laravel(T0 + 2_000) };
				nock(TEST_BASE_URL)
					.post(op.post)
					.reply(502, 'Bad Gateway')
					.get(op.list)
					.query(true)
					.reply(200, page([older]))
					.post(op.post)
					.reply(201, { message: 'Created successfully', data: made });
				const [output] = await run(parameters);
				expect(output.json).toMatchObject({ id: 9, name: NAME });
				expect(output.json.created_by_earlier_attempt).toBeUndefined();
				expect(nock.isDone()).toBe(true);
			},
		);

		it.each([
			['no creation time', { id: 3, name: NAME }, 'ID 3, no creation time'],
			[
				'a time without a zone',
				{ id: 3, name: NAME, created_at: '2026-11-23 10:00:05' },
				'ID 3, created 2026-11-23 10:00:05',
			],
		])(
			'a same-name object with %s is neither adopted nor followed by a second create: the item names it',
			async (_label, candidate, named) => {
				nock(TEST_BASE_URL)
					.post(op.post)
					.reply(502, 'Bad Gateway')
					.get(op.list)
					.query(true)
					.reply(200, page([candidate]));
				await expect(run(parameters)).rejects.toThrow(
					`with that name whose creation time cannot show whether this item made it (${named})`,
				);
				expect(nock.isDone()).toBe(true);
			},
		);
	});
});
