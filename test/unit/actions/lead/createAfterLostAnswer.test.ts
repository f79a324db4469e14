/**
 * Lead → Create after a lost answer (a 502, a 500): only a lead that the
 * item's own attempt can have stored (the data sent, created after the
 * attempt was sent) is adopted; a lead stored before (a re-run import) goes
 * through On Duplicate as if the attempt had been refused as a duplicate, and
 * the create is not sent again. `created_at` carries no time zone: a lead is
 * proven the attempt's by its ID, above that of a lead the same run created
 * before the attempt was sent.
 */
import nock from 'nock';

import { NodeOperationError } from 'n8n-workflow';

import { storedEarlier } from '../../../../nodes/VoiceChatAssistant/actions/lead/ownAttempt';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { item, run } from '../helpers';
import { createIn, duplicate, readBack, runAsSecond } from './createFixtures';

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
const create = (options: object = {}) =>
	createIn('3', PHONE, { variablesJson: JSON.stringify(variables), options });

describe('Lead → Create after a lost answer: only its own lead is adopted', () => {
	const clock = fakeClockPerTest();

	const read = (leads: object[]) => readBack(leads, PHONE, 3);
	const lost502 = () => nock(TEST_BASE_URL).post('/api/user/lead', body).reply(502, 'Bad Gateway');
	/** A 500, then the create sent again refused as a duplicate. */
	const resendRefused = () =>
		nock(TEST_BASE_URL)
			.post('/api/user/lead', body)
			.reply(500, { message: 'Server Error' })
			.post('/api/user/lead', body)
			.reply(422, duplicate);

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
			`Campaign 3 already has a lead with the phone number ${PHONE} (lead 77); this item's create got no answer, and that lead is not proven its own (stored before the create was sent, with other data, or the run's first create, with no lead of this run to compare its ID with)`,
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
		resendRefused();
		read([earlierRun]);
		read([earlierRun]);
		const [out] = await run(create({ onDuplicate: 'skip' }));
		expect(out.json).toMatchObject({ id: 77, skipped: true });
		expect(out.json.created_by_earlier_attempt).toBeUndefined();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a 500, sent again, "duplicate": with On Duplicate = Fail the item fails with the service message', async () => {
		resendRefused();
		read([earlierRun]);
		await expect(run(create({ onDuplicate: 'fail' }))).rejects.toThrow('already exists');
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('On Duplicate = Skip, a duplicate whose read-back fails: the item is still skipped, without the lead', async () => {
		nock(TEST_BASE_URL).post('/api/user/lead', body).reply(422, duplicate);
		nock(TEST_BASE_URL).get('/api/user/leads').query(true).reply(400, { message: 'Bad request' });
		const [out] = await run(create({ onDuplicate: 'skip' }));
		expect(out.json).toEqual({
			skipped: true,
			reason:
				'The given data was invalid.: phone_number: A lead with this phone number already exists in this campaign.',
		});
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a resend refused as a duplicate whose read-back fails: the item fails with the reading error and says where to look', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/leads')
			.query({ phone_number: PHONE, campaign_id: 3, per_page: 10, page: 1 })
			.reply(403, { message: 'This action is unauthorized.' });
		const { context } = createContext({ parameters: create() });
		const refused = {
			response: new Error('duplicate'),
			phoneNumber: PHONE,
			campaignId: 3,
			sent: { variables, secondary_contacts: [] },
		};
		const error = await storedEarlier(context, 0, refused, clock.clock.now()).catch((e) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		const what = `Campaign 3 has a lead with the phone number ${PHONE}, maybe stored by this item's own attempt (its answer was lost), and reading it back failed: `;
		expect(error.message.startsWith(what)).toBe(true);
		expect(error.message.length).toBeGreaterThan(what.length);
		expect(error.description).toBe(
			`Look for ${PHONE} with Lead → Get Many (phone filter) before running the item again.`,
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('the run`s first create, a 502 and its lead stored (no lead of the run to compare its ID with): not proven its own, On Duplicate = Fail fails, the default outputs it as already stored', async () => {
		lost502();
		const own = lead('2023-11-14 22:13:22');
		read([own]);
		await expect(run(create({ onDuplicate: 'fail' }))).rejects.toThrow('is not proven its own');
		lost502();
		read([own]);
		read([own]);
		const [output] = await run(create());
		expect(output.json).toMatchObject({ id: 77, already_stored: true });
		expect(output.json).not.toHaveProperty('created_by_earlier_attempt');
		expect(nock.pendingMocks()).toEqual([]);
	});

	/**
	 * Two items of one run: the first stored (its answer arrives), the second's
	 * answer lost; the service's zone-less times written in `zone` (hours from
	 * UTC); the stored lead's time is the caller's (after a daylight-saving switch: another zone).
	 */
	async function secondLost(zone: number, stored: object) {
		const first = '+4915100000078';
		const local = (ms: number, hours: number) =>
			new Date(ms + hours * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
		lost502();
		read([stored]);
		// one item in flight: the second is sent after the first's answer
		return await runAsSecond(create({ onDuplicate: 'fail' }), {
			phone: first,
			body,
			answer: () => {
				const created = local(clock.now(), zone);
				clock.advance(60_000);
				return {
					message: 'Lead created successfully',
					data: { ...lead(created), id: 78, phone_number: first },
				};
			},
		});
	}

	it.each([
		['UTC+14:00', 14, 0],
		['UTC-12:00', -12, 0],
		['UTC+01:00, then a daylight-saving switch to UTC+02:00', 1, 1],
	])(
		'a server in %s: the second item`s own lead (ID above the first`s) is adopted; an identical lead stored before (a lower ID) is not, whatever its time says',
		async (_zone, zone, switchHours) => {
			const attempt = () => new Date(clock.now() + (zone + switchHours) * 3_600_000);
			const stamp = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
			// the own lead: stored a second after the attempt was sent, ID 79
			const ownOutput = await secondLost(zone, {
				...lead(stamp(new Date(attempt().getTime() + 61_000))),
				id: 79,
			});
			expect(ownOutput[0][1].json).toMatchObject({ id: 79, created_by_earlier_attempt: true });
			expect(nock.pendingMocks()).toEqual([]);
			// a lead of an earlier run, 1 hour (or 14 hours) before: its time reads like the attempt's in
			// another zone; its ID (60) is below the run's first lead
			for (const hoursBefore of [1, 14]) {
				await expect(
					secondLost(zone, {
						...lead(stamp(new Date(attempt().getTime() + 61_000 - hoursBefore * 3_600_000))),
						id: 60,
					}),
				).rejects.toThrow('is not proven its own');
				nock.cleanAll();
			}
		},
	);
});
