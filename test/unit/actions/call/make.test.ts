import nock from 'nock';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { items, rl, run } from '../helpers';

describe('Call', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Make sends assistant, phone and variables and outputs the answer', async () => {
		const answer = { message: 'Call initiated', call_id: 77, status: 'initiated' };
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/make_call', {
				assistant_id: 2,
				phone_number: '+4915112345678',
				variables: { customer_name: 'Ada' },
			})
			.reply(200, answer);
		const { context } = createContext({
			parameters: {
				resource: 'call',
				operation: 'make',
				assistantId: { __rl: true, mode: 'id', value: '2' },
				phoneNumber: '+4915112345678',
				variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
			},
		});
		expect((await router.call(context))[0]).toEqual([{ json: answer, pairedItem: { item: 0 } }]);
		scope.done();
	});

	it('Make refuses a number that is not E.164', async () => {
		const { context } = createContext({
			parameters: {
				resource: 'call',
				operation: 'make',
				assistantId: { __rl: true, mode: 'id', value: '2' },
				phoneNumber: '0151 1234',
			},
		});
		await expect(router.call(context)).rejects.toThrow(
			'Phone Number must be a phone number in E.164 form',
		);
	});
});

describe('Call', () => {
	it('Make posts assistant, phone and variables and outputs the answer', async () => {
		const answer = { message: 'Call initiated', call_id: 77, status: 'initiated' };
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/make_call', {
				assistant_id: 5,
				phone_number: '+4915112345678',
				variables: { name: 'Ada', plan: 'gold' },
			})
			.reply(200, answer);
		const output = await run({
			resource: 'call',
			operation: 'make',
			assistantId: rl('5'),
			phoneNumber: '+4915112345678',
			variables: { values: [{ key: 'name', value: 'Ada' }] },
			variablesJson: { plan: 'gold' },
		});
		expect(output).toEqual(items([answer]));
		scope.done();
	});

	it('Make refuses a phone that is not E.164 without a request', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/make_call').reply(200, {});
		await expect(
			run({ resource: 'call', operation: 'make', assistantId: rl('5'), phoneNumber: '0049151' }),
		).rejects.toThrow('E.164');
		expect(scope.isDone()).toBe(false);
	});
});
