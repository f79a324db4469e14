/**
 * Lead → Create, exactly once: the phone number in its campaign is the lead's
 * natural key. After a lost answer one read by phone tells whether the lead
 * was stored; if not, the create is sent again, and a "duplicate" answer to
 * that resend is the earlier attempt's success. The item runs second in its
 * run, after a lead the run created (ID 41): its own lead's ID above that one
 * proves it was created after the attempt (the service's times name no zone).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../../actions/helpers';
import { createIn, duplicate, readBack, runAsSecond } from '../../actions/lead/createFixtures';

const PHONE = '+4915100000042';
// created a second after the attempt was sent (the fake clock starts at 2023-11-14 22:13:20 UTC)
const lead = {
	id: 42,
	campaign_id: 3,
	phone_number: PHONE,
	status: 'created',
	variables: {},
	created_at: '2023-11-14 22:13:21',
};
const create = (options: object = {}) => createIn('3', PHONE, { options });
const body = { phone_number: PHONE, campaign_id: 3 };

/** The item after one the run created (lead 41, answered first): the item's output. */
async function runSecond(parameters: IDataObject) {
	const first = '+4915100000041';
	const output = await runAsSecond(parameters, {
		phone: first,
		body,
		answer: () => ({ message: 'Lead created', data: { ...lead, id: 41, phone_number: first } }),
	});
	return output[0].slice(1).map((entry) => ({ ...entry, pairedItem: { item: 0 } }));
}

describe('Lead → Create: exactly once when answers get lost', () => {
	const clock = fakeClockPerTest();

	const lookUp = (leads: object[]) => readBack(leads, PHONE, 3);
	const lost: Array<[string, (scope: nock.Interceptor) => nock.Scope]> = [
		['a 502 after storing', (scope) => scope.reply(502, 'Bad Gateway')],
		[
			'a dropped connection after storing',
			(scope) =>
				scope.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
		],
	];

	it.each(lost)(
		"%s: one read by phone finds the lead, which is the item's success; the create is not sent again",
		async (_what, lose) => {
			const first = lose(nock(TEST_BASE_URL).post('/api/user/lead', body));
			const readBack = lookUp([lead]);
			expect(await runSecond(create())).toEqual([
				item({ ...lead, created_by_earlier_attempt: true }),
			]);
			first.done();
			readBack.done();
			expect(nock.pendingMocks()).toEqual([]);
			expect(clock.sleeps).toHaveLength(1);
		},
	);

	it.each(lost)(
		"%s, and the read finds no lead: the create is sent again, its answer is the item's",
		async (_what, lose) => {
			lose(nock(TEST_BASE_URL).post('/api/user/lead', body));
			const readBack = lookUp([{ ...lead, phone_number: `${PHONE}9` }]);
			const resend = nock(TEST_BASE_URL)
				.post('/api/user/lead', body)
				.reply(200, { message: 'Lead created successfully', data: lead });
			expect(await run(create())).toEqual([item(lead)]);
			readBack.done();
			resend.done();
		},
	);

	it('a 502, the read fails too: the create is sent again, and "duplicate" on the resend is the success, read back by phone', async () => {
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(502, 'Bad Gateway');
		nock(TEST_BASE_URL).get('/api/user/leads').query(true).reply(400, { message: 'Bad request' });
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(422, duplicate);
		const readBack = lookUp([lead]);
		expect(await runSecond(create())).toEqual([
			item({ ...lead, created_by_earlier_attempt: true }),
		]);
		readBack.done();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a 500 (which most often stored nothing): sent again at once, and "duplicate" on the resend is the success, read back by phone', async () => {
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(500, { message: 'Server Error' });
		const resend = nock(TEST_BASE_URL).post('/api/user/lead', body).reply(422, duplicate);
		const readBack = lookUp([lead]);
		expect(await runSecond(create())).toEqual([
			item({ ...lead, created_by_earlier_attempt: true }),
		]);
		resend.done();
		readBack.done();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a 503 before anything was stored, then success: the lead, no read-back', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/lead', body)
			.reply(503, { message: 'Service Unavailable' })
			.post('/api/user/lead', body)
			.reply(200, { message: 'Lead created successfully', data: lead });
		expect(await run(create())).toEqual([item(lead)]);
	});

	it('"duplicate" on the first attempt keeps its meaning: Skip marks the item, Fail fails it', async () => {
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(422, duplicate);
		expect((await run(create({ onDuplicate: 'skip' })))[0].json).toMatchObject({ skipped: true });
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(422, duplicate);
		await expect(run(create({ onDuplicate: 'fail' }))).rejects.toThrow('already exists');
	});

	it('with Allow duplicates there is no natural key: a lost answer is not sent again and the error says what to check', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', { ...body, allow_dupplicate: true })
			.once()
			.reply(502, 'Bad Gateway');
		const error = await run(create({ onDuplicate: 'allow' })).catch((e) => e);
		expect(error.description).toContain(
			`may have been carried out; look for ${PHONE} with Lead → Get Many (phone filter) before running it again`,
		);
		expect(clock.sleeps).toEqual([]);
		scope.done();
	});
});
