/**
 * Lead → Create: the exact request (campaign, phone, variables, secondary
 * contacts), the lead as output, and the refusals before sending, item by
 * item. On Duplicate: createDuplicates.test.ts; Variables From = Input
 * Fields: createInputFields.test.ts.
 */
import nock from 'nock';

import { description as leadCreateDescription } from '../../../../nodes/VoiceChatAssistant/actions/lead/create.operation';
import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../../helpers/context';
import { items, rl, run } from '../helpers';
import { base, lead, storedLead } from './createFixtures';

describe('Lead → Create', () => {
	it('sends campaign, phone, merged variables and secondary contacts exactly, and outputs the lead', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', {
				phone_number: '+4915112345678',
				campaign_id: 7,
				variables: { customer_name: 'Ada', email: 'ada@example.com', plan: 'gold' },
				secondary_contacts: [{ phone_number: '+4930123456789', variables: { role: 'assistant' } }],
			})
			.reply(200, { message: 'Lead created successfully', data: lead(1, '+4915112345678') });
		const { context } = createContext({
			parameters: {
				...base,
				phoneNumber: ' +4915112345678 ',
				variables: {
					values: [
						{ key: 'customer_name', value: 'Ada' },
						{ key: 'email', value: 'ada@example.com' },
					],
				},
				variablesJson: '{"plan":"gold","customer_name":"overridden by the pair"}',
				secondaryContacts: {
					contacts: [{ phoneNumber: '+4930123456789', variablesJson: '{"role":"assistant"}' }],
				},
			},
		});
		const [output] = await router.call(context);
		expect(output).toEqual([{ json: lead(1, '+4915112345678'), pairedItem: { item: 0 } }]);
		scope.done();
	});

	it('Variables (JSON) left at its default, an empty object, sends no variables', async () => {
		const field = leadCreateDescription.find((p) => p.name === 'variablesJson');
		expect(field?.default).toBe('{}');
		const scope = nock(TEST_BASE_URL)
			.post(
				'/api/user/lead',
				(body) =>
					JSON.stringify(body) ===
					JSON.stringify({ phone_number: '+4915112345678', campaign_id: 7 }),
			)
			.reply(200, { message: 'Lead created successfully', data: lead(3, '+4915112345678') });
		const { context } = createContext({
			parameters: {
				...base,
				variables: {},
				variablesJson: field?.default,
			},
		});
		const [output] = await router.call(context);
		expect(output[0].json.id).toBe(3);
		scope.done();
	});

	it.each([
		['4915112345678', 'Phone Number'],
		['+49 151 1234', 'Phone Number'],
		['+0151123456', 'Phone Number'],
		['', 'Phone Number'],
	])('refuses the phone %j before sending anything', async (phone, field) => {
		const { context } = createContext({
			parameters: { ...base, phoneNumber: phone },
		});
		await expect(router.call(context)).rejects.toThrow(
			`${field} must be a phone number in E.164 form`,
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('refuses an invalid secondary contact phone, naming the contact', async () => {
		const { context } = createContext({
			parameters: {
				...base,
				secondaryContacts: {
					contacts: [{ phoneNumber: '+4930123456789' }, { phoneNumber: '030 123' }],
				},
			},
		});
		await expect(router.call(context)).rejects.toThrow(
			'Secondary Contacts → Contact 2 → Phone Number must be a phone number in E.164 form',
		);
	});

	it('5 items with one invalid phone and Continue On Fail: 4 leads and 1 error item, all paired', async () => {
		const phones = [
			'+4915100000001',
			'+4915100000002',
			'not-a-phone',
			'+4915100000004',
			'+4915100000005',
		];
		const scope = nock(TEST_BASE_URL);
		phones
			.filter((p) => p.startsWith('+'))
			.forEach((p, n) => {
				scope
					.post('/api/user/lead', { phone_number: p, campaign_id: 7 })
					.reply(200, { message: 'ok', data: lead(n + 1, p) });
			});
		const { context } = createContext({
			parameters: phones.map((phoneNumber) => ({ ...base, phoneNumber })),
			items: phones.map((phone) => ({ json: { phone } })),
			continueOnFail: true,
		});
		const [output] = await router.call(context);
		expect(output.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(output.map((o) => o.json.phone_number ?? null)).toEqual([
			'+4915100000001',
			'+4915100000002',
			null,
			'+4915100000004',
			'+4915100000005',
		]);
		expect(output[2].json.error).toBe(
			'Phone Number must be a phone number in E.164 form (a "+", the country code and the number, digits only, e.g. +4915112345678), got "not-a-phone"',
		);
		scope.done();
	});

	it('without Continue On Fail the run stops at the invalid item with the field message', async () => {
		const phones = ['+4915100000001', 'not-a-phone'];
		nock(TEST_BASE_URL)
			.post('/api/user/lead')
			.reply(200, { message: 'ok', data: lead(1, phones[0]) });
		const { context } = createContext({
			parameters: phones.map((phoneNumber) => ({ ...base, phoneNumber })),
			items: phones.map((phone) => ({ json: { phone } })),
		});
		await expect(router.call(context)).rejects.toMatchObject({
			message: expect.stringContaining('Phone Number must be'),
			context: { itemIndex: 1 },
		});
	});

	it('sends campaign, phone, variables and secondary contacts (pairs and JSON) and outputs the lead', async () => {
		const scope = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.post('/api/user/lead', {
				phone_number: '+4915112345678',
				campaign_id: 7,
				variables: { name: 'Ada', plan: 'gold' },
				secondary_contacts: [
					{ phone_number: '+4930123456789', variables: { role: 'office', floor: '2' } },
					{ phone_number: '+4930987654321', variables: {} },
				],
			})
			.reply(200, { message: 'Lead created successfully', data: storedLead });
		const output = await run({
			...base,
			campaignId: rl('7', 'id'),
			variables: { values: [{ key: 'name', value: 'Ada' }] },
			variablesJson: '{"plan":"gold"}',
			secondaryContacts: {
				contacts: [
					{
						phoneNumber: '+4930123456789',
						variables: { values: [{ key: 'floor', value: '2' }] },
						variablesJson: '{"role":"office"}',
					},
					{ phoneNumber: '+4930987654321', variablesJson: '{}' },
				],
			},
		});
		expect(output).toEqual(items([storedLead]));
		scope.done();
	});

	it.each([['015112345678'], ['+49 151 12345678'], ['']])(
		'refuses the phone %j without a request',
		async (phone) => {
			const scope = nock(TEST_BASE_URL).post('/api/user/lead').reply(200, { data: storedLead });
			await expect(run({ ...base, phoneNumber: phone })).rejects.toThrow(
				'Phone Number must be a phone number in E.164 form',
			);
			expect(scope.isDone()).toBe(false);
		},
	);

	it('refuses a secondary contact phone without a request', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/lead').reply(200, { data: storedLead });
		await expect(
			run({ ...base, secondaryContacts: { contacts: [{ phoneNumber: '0301234' }] } }),
		).rejects.toThrow(
			'Secondary Contacts → Contact 1 → Phone Number must be a phone number in E.164 form',
		);
		expect(scope.isDone()).toBe(false);
	});
});
