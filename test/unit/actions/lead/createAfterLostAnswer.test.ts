/**
 * Lead → Create after a lost answer (a 502, a 500): only a lead that the
 * item's own attempt can have stored (the data sent, created after the
 * attempt was sent) is adopted; a lead stored before (a re-run import) goes
 * through On Duplicate as if the attempt had been refused as a duplicate, and
 * the create is not sent again. `created_at` carries no time zone.
 */
import nock from 'nock';

import { NodeOperationError } from 'n8n-workflow';

import {
	forgetLeadZones,
	storedEarlier,
} from '../../../../nodes/VoiceChatAssistant/actions/lead/ownAttempt';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { item, rl, run } from '../helpers';

// the fake clock starts at 2023-11-14 22:13:20 UTC: the attempt is sent then
const PHONE = '+4915100000077';
const variables = { customer_name: 'Ann' };
const body = { phone_number: PHONE, campaign_id: 3, variables };
const lead = (createdAt: string, vars: object = variables) => ({
	id: 77,
	campaign_id: 3,
	phone_number: PHONE,
	status: 'created',
	variables: vars,
	secondary_contacts: [],
	created_at: createdAt,
});
const DUPLICATE = {
	message: 'The given data was invalid.',
	errors: { phone_number: ['A lead with this phone number already exists in this campaign.'] },
};
const create = (options: object = {}) => ({
	resource: 'lead',
	operation: 'create',
	campaignId: rl('3'),
	phoneNumber: PHONE,
	variablesJson: JSON.stringify(variables),
	options,
});

describe('Lead → Create after a lost answer: only its own lead is adopted', () => {
	const clock = fakeClockPerTest();
	beforeEach(() => forgetLeadZones());

	const read = (leads: object[]) =>
		nock(TEST_BASE_URL)
			.get('/api/user/leads')
			.query({ phone_number: PHONE, campaign_id: 3, per_page: 10, page: 1 })
			.reply(200, { data: leads, current_page: 1, last_page: 1, next_page_url: null });
	const lost502 = () => nock(TEST_BASE_URL).post('/api/user/lead', body).reply(502, 'Bad Gateway');

	// stored by an earlier run 2 h 07 min before the attempt: no time zone makes that after the attempt
	const earlierRun = lead('2023-11-14 20:06:20');

	it('a 502, an identical lead stored by an earlier run: Use Stored Lead If Identical outputs it as already stored, nothing sent again', async () => {
		lost502();
		read([earlierRun]);
		read([earlierRun]);
		expect(await run(create())).toEqual([item({ ...earlierRun, already_stored: true })]);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a 502, an identical lead stored by an earlier run: On Duplicate = Fail fails naming the phone number, nothing sent again', async () => {
		const scope = lost502();
		read([earlierRun]);
		const error = await run(create({ onDuplicate: 'fail' })).catch((e) => e);
		expect(error.message).toBe(
			`Campaign 3 already has a lead with the phone number ${PHONE} (lead 77); this item's create got no answer, and that lead is not its own (stored before the create was sent, or with other data)`,
		);
		scope.done();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a 502, a lead created after the attempt but with other data: not its own, Use Stored Lead If Identical fails naming the difference', async () => {
		lost502();
		const other = lead('2023-11-14 22:13:21', { customer_name: 'Bob' });
		read([other]);
		read([other]);
		await expect(run(create())).rejects.toThrow(
			'variable "customer_name": stored "Bob", sent "Ann"',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a 500, sent again, "duplicate": a lead of an earlier run is no success; Skip marks the item skipped', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/lead', body)
			.reply(500, { message: 'Server Error' })
			.post('/api/user/lead', body)
			.reply(422, DUPLICATE);
		read([earlierRun]);
		read([earlierRun]);
		const [out] = await run(create({ onDuplicate: 'skip' }));
		expect(out.json).toMatchObject({ id: 77, skipped: true });
		expect(out.json.created_by_earlier_attempt).toBeUndefined();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a 500, sent again, "duplicate": with On Duplicate = Fail the item fails with the service message', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/lead', body)
			.reply(500, { message: 'Server Error' })
			.post('/api/user/lead', body)
			.reply(422, DUPLICATE);
		read([earlierRun]);
		await expect(run(create({ onDuplicate: 'fail' }))).rejects.toThrow('already exists');
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a resend refused as a duplicate whose read-back fails: the item fails with the reading error and says where to look', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/leads')
			.query({ phone_number: PHONE, campaign_id: 3, per_page: 10, page: 1 })
			.reply(403, { message: 'This action is unauthorized.' });
		const { context } = createContext({ parameters: create() });
		const duplicate = {
			response: new Error('duplicate'),
			phoneNumber: PHONE,
			campaignId: 3,
			sent: { variables, secondary_contacts: [] },
		};
		const error = await storedEarlier(context, 0, duplicate, clock.clock.now()).catch((e) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		const what = `Campaign 3 has a lead with the phone number ${PHONE}, maybe stored by this item's own attempt (its answer was lost), and reading it back failed: `;
		expect(error.message.startsWith(what)).toBe(true);
		expect(error.message.length).toBeGreaterThan(what.length);
		expect(error.description).toBe(
			`Look for ${PHONE} with Lead → Get Many (phone filter) before running the item again.`,
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a 502 and its lead stored, written in the service zone UTC+02:00 (not yet known): adopted, the create not sent again', async () => {
		lost502();
		const own = lead('2023-11-15 00:13:22');
		read([own]);
		expect(await run(create({ onDuplicate: 'fail' }))).toEqual([
			item({ ...own, created_by_earlier_attempt: true }),
		]);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('the zone learned from a lead created earlier (UTC+01:00) tells that a lead 15 minutes older is not the attempt`s', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/lead', { ...body, phone_number: '+4915100000078' })
			.reply(200, {
				message: 'Lead created successfully',
				data: { ...lead('2023-11-14 23:13:20'), id: 78, phone_number: '+4915100000078' },
			});
		await run({ ...create(), phoneNumber: '+4915100000078' });
		clock.advance(60_000);
		// 2023-11-14 23:14:20 at UTC+01:00 would be the attempt's second; this one is 15 minutes before
		// (under UTC+00:45 it would be the attempt's own)
		lost502();
		read([lead('2023-11-14 22:59:20')]);
		await expect(run(create({ onDuplicate: 'fail' }))).rejects.toThrow('that lead is not its own');
		expect(nock.pendingMocks()).toEqual([]);
	});
});
