/**
 * Lead → Create, exactly once: the phone number in its campaign is the lead's
 * natural key, so a create whose answer was lost is sent again, and a
 * "duplicate" answer to that resend is the earlier attempt's success.
 */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { item, rl, run } from '../../actions/helpers';

const PHONE = '+4915100000042';
const lead = { id: 42, campaign_id: 3, phone_number: PHONE, status: 'created', variables: {} };
const DUPLICATE = {
	message: 'The given data was invalid.',
	errors: { phone_number: ['A lead with this phone number already exists in this campaign.'] },
};
const create = (options: object = {}) => ({ resource: 'lead', operation: 'create', campaignId: rl('3'), phoneNumber: PHONE, options });
const body = { phone_number: PHONE, campaign_id: 3 };

describe('Lead → Create: exactly once when answers get lost', () => {
	const clock = fakeClockPerTest();

	it.each([
		['a 502 after storing', (scope: nock.Interceptor) => scope.reply(502, 'Bad Gateway')],
		['a dropped connection after storing', (scope: nock.Interceptor) => scope.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))],
		['a 500', (scope: nock.Interceptor) => scope.reply(500, { message: 'Server Error' })],
	])('%s, then "duplicate" on the resend: a success with the stored lead, read back by phone', async (_what, lose) => {
		lose(nock(TEST_BASE_URL).post('/api/user/lead', body));
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(422, DUPLICATE);
		const readBack = nock(TEST_BASE_URL)
			.get('/api/user/leads')
			.query({ phone_number: PHONE, campaign_id: 3, per_page: 10, page: 1 })
			.reply(200, { data: [lead], current_page: 1, last_page: 1, next_page_url: null });
		expect(await run(create())).toEqual([item({ ...lead, created_by_earlier_attempt: true })]);
		readBack.done();
	});

	it('a 503 before anything was stored, then success: the lead, no read-back', async () => {
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(503, { message: 'Service Unavailable' }).post('/api/user/lead', body).reply(200, { message: 'Lead created successfully', data: lead });
		expect(await run(create())).toEqual([item(lead)]);
	});

	it('"duplicate" on the first attempt keeps its meaning: Skip marks the item, Fail fails it', async () => {
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(422, DUPLICATE);
		expect((await run(create({ onDuplicate: 'skip' })))[0].json).toMatchObject({ skipped: true });
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(422, DUPLICATE);
		await expect(run(create({ onDuplicate: 'fail' }))).rejects.toThrow('already exists');
	});

	it('with Allow duplicates there is no natural key: a lost answer is not sent again and the error says what to check', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/lead', { ...body, allow_dupplicate: true }).once().reply(502, 'Bad Gateway');
		const error = await run(create({ onDuplicate: 'allow' })).catch((e) => e);
		expect(error.description).toContain(`may have been carried out; look for ${PHONE} with Lead → Get Many (phone filter) before running it again`);
		expect(clock.sleeps).toEqual([]);
		scope.done();
	});
});
