/** Phone Number → Release: DELETE, output {released, id, message, removed}; the service's errors. */
import nock from 'nock';

import { description } from '../../../../nodes/VoiceChatAssistant/actions/phoneNumber/PhoneNumber.resource';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

const params = (id = '7') => ({
	resource: 'phoneNumber',
	operation: 'release',
	phoneNumberId: rl(id, 'id'),
});

describe('Phone Number → Release', () => {
	it('a bought number is scheduled for release at the end of the billing period', async () => {
		const message =
			'Phone number released successfully. It will be removed at the end of the billing period.';
		const scope = nock(TEST_BASE_URL).delete('/api/user/phone-numbers/7').reply(200, { message });
		expect(await run(params())).toEqual([
			item({ released: true, id: 7, message, removed: 'at end of billing period' }),
		]);
		scope.done();
	});

	it('a SIP or caller ID number is deleted at once', async () => {
		const message = 'Phone number deleted successfully.';
		nock(TEST_BASE_URL).delete('/api/user/phone-numbers/5').reply(200, { message });
		expect(await run(params('5'))).toEqual([
			item({ released: true, id: 5, message, removed: 'immediately' }),
		]);
	});

	it('an answer without a message still says what was released', async () => {
		nock(TEST_BASE_URL).delete('/api/user/phone-numbers/7').reply(204);
		expect(await run(params())).toEqual([item({ released: true, id: 7 })]);
	});

	it.each([
		[400, 'Phone number is already scheduled for release.'],
		[404, 'Phone number not found.'],
		[500, 'Failed to release phone number. Please try again or contact support.'],
	])('a %i shows the service text', async (status, error) => {
		// a 500 is sent again twice (a delete is safe to repeat): the third is the answer
		nock(TEST_BASE_URL)
			.delete('/api/user/phone-numbers/7')
			.times(status === 500 ? 3 : 1)
			.reply(status, { error });
		await expect(run(params())).rejects.toThrow(error);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('refuses an ID that is not a number before sending', async () => {
		await expect(run(params('0'))).rejects.toThrow('Phone Number must be a positive whole number');
	});

	it('says that it is irreversible and what happens to bought numbers and assistants', () => {
		const picker = description.find((p) => p.name === 'operation')!;
		const option = (picker.options as Array<{ value: string; description: string }>).find(
			(o) => o.value === 'release',
		)!;
		expect(option.description).toMatch(/Irreversible/);
		expect(option.description).toMatch(/end of its billing period/);
		expect(option.description).toMatch(/Assistants using the number lose it/);
	});
});
