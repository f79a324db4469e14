/**
 * SIP Trunk → Create when the answer is lost. The service refuses a second
 * trunk with the same phone number, SIP username and SIP address (409), so
 * the create is sent again after a lost answer (502, 504, broken connection,
 * timeout), and a duplicate answer to that resend is the earlier attempt's
 * success, read back from the list. A 409 to the first attempt stays an
 * error; a refusal and the documented 500 (provisioning failed, nothing
 * saved) are never sent again.
 */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { item, run } from '../../actions/helpers';
import { createBody, createParameters, trunk, withTrunkIds } from '../../actions/sipTrunk/fixtures';

const PATH = '/api/user/phone-numbers/sip-trunks';
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const laravel = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
const params = { ...createParameters, additionalFields: { nickname: 'Office' } };
const sent = { ...createBody, nickname: 'Office' };
const DUPLICATE = {
	error: 'A SIP trunk with this phone number, username and address already exists.',
};
const ours = { ...trunk, created_at: laravel(T0), updated_at: laravel(T0) };
const other = { ...ours, id: 12, phone_number: '+4930999999' };
const sameNumberOtherUser = { ...ours, id: 13, sip_username: 'other-pbx' };
const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
/** The create answered `status` (its answer lost), the resend refused as a duplicate, then the list (to be answered). */
const lostThenDuplicate = (status: number, text: string) =>
	nock(TEST_BASE_URL)
		.post(PATH, sent)
		.reply(status, text)
		.post(PATH, sent)
		.reply(409, DUPLICATE)
		.get(PATH);

describe('SIP Trunk → Create when the answer is lost', () => {
	const clock = fakeClockPerTest(T0);

	it('a 502 after storing: sent again, the duplicate answer is the success, the trunk read back from the list', async () => {
		const scope = lostThenDuplicate(502, 'Bad Gateway').reply(200, {
			data: [other, sameNumberOtherUser, ours],
		});
		const output = await run(params);
		expect(output).toEqual([item({ ...ours, created_by_earlier_attempt: true })]);
		expect(JSON.stringify(output)).not.toContain('TopSecret-99');
		scope.done();
		expect(clock.sleeps.filter((ms) => ms > 0)).toHaveLength(1);
	});

	it('a dropped connection and a 504 before the duplicate answer: still one success item', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(PATH, sent)
			.replyWithError(reset())
			.post(PATH, sent)
			.reply(504, 'Gateway Timeout')
			.post(PATH, sent)
			.reply(409, DUPLICATE)
			.get(PATH)
			.reply(200, { data: [ours] });
		expect(await run(params)).toEqual([item({ ...ours, created_by_earlier_attempt: true })]);
		scope.done();
	});

	it('a dropped connection and nothing stored: the resend creates the trunk, an ordinary success', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(PATH, sent)
			.replyWithError(reset())
			.post(PATH, sent)
			.reply(201, { message: 'SIP trunk created successfully.', data: withTrunkIds });
		expect(await run(params)).toEqual([
			item({ ...withTrunkIds, message: 'SIP trunk created successfully.' }),
		]);
		scope.done();
	});

	it('a duplicate answer to the first attempt stays an error: no resend, no lookup', async () => {
		const scope = nock(TEST_BASE_URL).post(PATH, sent).reply(409, DUPLICATE);
		await expect(run(params)).rejects.toThrow(DUPLICATE.error);
		scope.done();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it.each([
		[
			422,
			{
				message: 'The given data was invalid.',
				errors: { sip_address: ['The sip address format is invalid.'] },
			},
			'sip_address: The sip address format is invalid.',
		],
		[
			500,
			{ error: 'Failed to provision SIP trunk. Please check the SIP settings or contact support.' },
			'Failed to provision SIP trunk.',
		],
	])('a %i is never sent again', async (status, answer, message) => {
		const scope = nock(TEST_BASE_URL).post(PATH, sent).reply(status, answer);
		await expect(run(params)).rejects.toThrow(message);
		scope.done();
		expect(clock.sleeps.filter((ms) => ms > 0)).toEqual([]);
	});

	it('the trunk with that key is older than the item: the duplicate was there before, the item fails', async () => {
		const old = { ...ours, created_at: laravel(T0 - 3 * 86_400_000) };
		const scope = lostThenDuplicate(502, 'Bad Gateway').reply(200, { data: [old] });
		const failure = (await run(params).catch((error: unknown) => error)) as Error & {
			description?: string;
		};
		expect(failure.message).toContain(DUPLICATE.error);
		expect(failure.description).toContain(
			'The SIP trunk with this phone number, username and address (ID 9) existed before this item ran.',
		);
		scope.done();
	});

	it('the list cannot be read: the output is what is known, marked, without the password', async () => {
		const scope = lostThenDuplicate(504, 'Gateway Timeout').reply(403, {
			message: 'This action is unauthorized.',
		});
		const { sip_password: _secret, sip_trunk_type: _type, ...known } = sent;
		expect(await run(params)).toEqual([item({ ...known, created_by_earlier_attempt: true })]);
		scope.done();
	});
});
