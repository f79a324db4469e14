import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';

import { description as leadCreateDescription } from '../../../../nodes/VoiceChatAssistant/actions/lead/create.operation';
import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../../helpers/context';
import { items, rl, run } from '../helpers';

const campaign = { __rl: true, mode: 'list', value: '7' };
const lead = (id: number, phone: string) => ({
	id,
	campaign_id: 7,
	phone_number: phone,
	variables: {},
	status: 'created',
	created_at: '2026-11-22 10:00:00',
	updated_at: '2026-11-22 10:00:00',
	campaign: { id: 7, name: 'Spring' },
	secondary_contacts: [],
});
const duplicate = {
	message: 'The given data was invalid.',
	errors: { phone_number: ['A lead with this phone number already exists in this campaign.'] },
};

describe('Lead → Create', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

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
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
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
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
				phoneNumber: '+4915112345678',
				variables: {},
				variablesJson: field?.default,
			},
		});
		const [output] = await router.call(context);
		expect(output[0].json.id).toBe(3);
		scope.done();
	});

	it('On Duplicate = Allow sends allow_dupplicate: true (spelled as the service spells it)', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', {
				phone_number: '+4915112345678',
				campaign_id: 7,
				allow_dupplicate: true,
			})
			.reply(200, { message: 'Lead created successfully', data: lead(2, '+4915112345678') });
		const { context } = createContext({
			parameters: {
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
				phoneNumber: '+4915112345678',
				options: { onDuplicate: 'allow' },
			},
		});
		const [output] = await router.call(context);
		expect(output[0].json.id).toBe(2);
		scope.done();
	});

	it('On Duplicate = Skip outputs the input with skipped: true and the service reason, and the stored lead', async () => {
		nock(TEST_BASE_URL).post('/api/user/lead').reply(422, duplicate);
		const readBack = nock(TEST_BASE_URL)
			.get('/api/user/leads')
			.query({ phone_number: '+4915112345678', campaign_id: 7, per_page: 10, page: 1 })
			.reply(200, {
				data: [lead(5, '+4915112345678')],
				current_page: 1,
				last_page: 1,
				next_page_url: null,
			});
		const { context } = createContext({
			parameters: {
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
				phoneNumber: '+4915112345678',
				options: { onDuplicate: 'skip' },
			},
			items: [{ json: { row: 12, phone: '+4915112345678' } }],
		});
		const [output] = await router.call(context);
		expect(output).toEqual([
			{
				json: {
					row: 12,
					phone: '+4915112345678',
					...lead(5, '+4915112345678'),
					skipped: true,
					reason:
						'The given data was invalid.: phone_number: A lead with this phone number already exists in this campaign.',
				},
				pairedItem: { item: 0 },
			},
		]);
		readBack.done();
	});

	it('On Duplicate = Skip still fails on other errors', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/lead')
			.reply(422, {
				message: 'The given data was invalid.',
				errors: { campaign_id: ['The selected campaign id is invalid.'] },
			});
		const { context } = createContext({
			parameters: {
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
				phoneNumber: '+4915112345678',
				options: { onDuplicate: 'skip' },
			},
		});
		await expect(router.call(context)).rejects.toThrow(
			'campaign_id: The selected campaign id is invalid.',
		);
	});

	it('On Duplicate = Fail fails with the service message', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/lead', { phone_number: '+4915112345678', campaign_id: 7 })
			.reply(422, duplicate);
		const { context } = createContext({
			parameters: {
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
				phoneNumber: '+4915112345678',
				options: { onDuplicate: 'fail' },
			},
		});
		await expect(router.call(context)).rejects.toThrow('already exists in this campaign');
	});

	it.each([
		['4915112345678', 'Phone Number'],
		['+49 151 1234', 'Phone Number'],
		['+0151123456', 'Phone Number'],
		['', 'Phone Number'],
	])('refuses the phone %j before sending anything', async (phone, field) => {
		const { context } = createContext({
			parameters: {
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
				phoneNumber: phone,
			},
		});
		await expect(router.call(context)).rejects.toThrow(
			`${field} must be a phone number in E.164 form`,
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('refuses an invalid secondary contact phone, naming the contact', async () => {
		const { context } = createContext({
			parameters: {
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
				phoneNumber: '+4915112345678',
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
			parameters: phones.map((phoneNumber) => ({
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
				phoneNumber,
			})),
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
			parameters: phones.map((phoneNumber) => ({
				resource: 'lead',
				operation: 'create',
				campaignId: campaign,
				phoneNumber,
			})),
			items: phones.map((phone) => ({ json: { phone } })),
		});
		await expect(router.call(context)).rejects.toMatchObject({
			message: expect.stringContaining('Phone Number must be'),
			context: { itemIndex: 1 },
		});
	});
});

describe('Lead → Create', () => {
	const lead = {
		id: 11,
		campaign_id: 7,
		phone_number: '+4915112345678',
		status: 'created',
		secondary_contacts: [],
	};
	const duplicate = {
		message: 'The given data was invalid.',
		errors: { phone_number: ['The phone number has already been taken in this campaign.'] },
	};
	const base = {
		resource: 'lead',
		operation: 'create',
		campaignId: rl('7'),
		phoneNumber: '+4915112345678',
	};

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
			.reply(200, { message: 'Lead created successfully', data: lead });
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
		expect(output).toEqual(items([lead]));
		scope.done();
	});

	it('On Duplicate = Fail fails with the service text and sends no allow flag', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', { phone_number: '+4915112345678', campaign_id: 7 })
			.reply(422, duplicate);
		await expect(run({ ...base, options: { onDuplicate: 'fail' } })).rejects.toThrow(
			'already been taken',
		);
		scope.done();
	});

	it('On Duplicate = Skip outputs the input item with skipped: true and the reason, and the stored lead', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', { phone_number: '+4915112345678', campaign_id: 7 })
			.reply(422, duplicate)
			.get('/api/user/leads')
			.query({ phone_number: '+4915112345678', campaign_id: 7, per_page: 10, page: 1 })
			.reply(200, { data: [lead], current_page: 1, last_page: 1, next_page_url: null });
		const output = await run({ ...base, options: { onDuplicate: 'skip' } }, [
			{ json: { row: 3, phone: '+4915112345678' } },
		]);
		expect(output).toEqual(
			items([
				{
					row: 3,
					phone: '+4915112345678',
					...lead,
					skipped: true,
					reason:
						'The given data was invalid.: phone_number: The phone number has already been taken in this campaign.',
				},
			]),
		);
		scope.done();
	});

	it('On Duplicate = Skip does not swallow other 422s', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/lead')
			.reply(422, {
				message: 'The given data was invalid.',
				errors: { campaign_id: ['The selected campaign id is invalid.'] },
			});
		await expect(run({ ...base, options: { onDuplicate: 'skip' } })).rejects.toThrow('campaign_id');
	});

	it('On Duplicate = Allow sends allow_dupplicate: true, spelled as the service spells it', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', {
				phone_number: '+4915112345678',
				campaign_id: 7,
				allow_dupplicate: true,
			})
			.reply(200, { message: 'Lead created successfully', data: lead });
		expect(await run({ ...base, options: { onDuplicate: 'allow' } })).toEqual(items([lead]));
		scope.done();
	});

	describe('On Duplicate = Use Stored Lead If Identical (the default): running an import again', () => {
		const sentBody = {
			phone_number: '+4915112345678',
			campaign_id: 7,
			variables: { customer_name: 'Anna', visits: '3' },
			secondary_contacts: [
				{ phone_number: '+4930123456789', variables: { role: 'office' } },
				{ phone_number: '+4930987654321', variables: {} },
			],
		};
		const parameters = {
			...base,
			variablesJson: '{"customer_name":"Anna","visits":"3"}',
			secondaryContacts: {
				contacts: [
					{ phoneNumber: '+4930123456789', variablesJson: '{"role":"office"}' },
					{ phoneNumber: '+4930987654321', variablesJson: '{}' },
				],
			},
		};
		const contact = (id: number, phone: string, variables: object) => ({
			id,
			phone_number: phone,
			variables,
			status: 'created',
			created_at: '2026-11-22 10:00:00',
			updated_at: '2026-11-22 10:00:00',
		});
		// as an earlier run stored it: numbers where text was sent, other key and contact order
		const stored = {
			id: 31,
			campaign_id: 7,
			phone_number: '+4915112345678',
			variables: { visits: 3, customer_name: 'Anna' },
			status: 'created',
			created_at: '2026-11-22 10:00:00',
			updated_at: '2026-11-22 10:00:00',
			campaign: { id: 7, name: 'Spring' },
			secondary_contacts: [
				contact(2, '+4930987654321', {}),
				contact(1, '+4930123456789', { role: 'office' }),
			],
		};
		const page = (data: object[]) => ({ data, current_page: 1, last_page: 1, next_page_url: null });
		/** The create (answered "duplicate") and the one read-back by phone and campaign, exactly. */
		const duplicateThenRead = (data: object[]) =>
			nock(TEST_BASE_URL)
				.post('/api/user/lead', sentBody)
				.reply(422, duplicate)
				.get('/api/user/leads')
				.query({ phone_number: '+4915112345678', campaign_id: 7, per_page: 10, page: 1 })
				.reply(200, page(data));

		it('the option is the default and says what it costs', () => {
			const onDuplicate = (
				leadCreateDescription.find((p) => p.name === 'options')?.options as Array<{
					name: string;
					default?: unknown;
					options?: Array<{ value: string; description?: string }>;
				}>
			).find((p) => p.name === 'onDuplicate');
			expect(onDuplicate?.default).toBe('useStored');
			expect(onDuplicate?.options?.map((o) => o.value)).toEqual([
				'allow',
				'fail',
				'skip',
				'useStored',
			]);
			expect(onDuplicate?.options?.find((o) => o.value === 'useStored')?.description).toContain(
				'one extra request per duplicate',
			);
		});

		it('a stored lead with the same variables and secondary contacts: the item succeeds with it, marked already_stored', async () => {
			const scope = duplicateThenRead([stored]);
			expect(await run(parameters)).toEqual(items([{ ...stored, already_stored: true }]));
			scope.done();
		});

		it('among several leads with the number (partial matches, an earlier Allow), the identical one is used', async () => {
			const other = { ...stored, id: 40, variables: { customer_name: 'Bob', visits: '3' } };
			const longer = { ...stored, id: 41, phone_number: '+41915112345678' };
			const scope = duplicateThenRead([longer, other, stored]);
			expect((await run(parameters))[0].json).toMatchObject({ id: 31, already_stored: true });
			scope.done();
		});

		it('a stored lead whose variables differ: the item fails, names the difference and points to Skip and Allow', async () => {
			const scope = duplicateThenRead([
				{ ...stored, variables: { customer_name: 'Ann', visits: 3 } },
			]);
			const error = await run(parameters).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				'Campaign 7 already has a lead with the phone number +4915112345678 (lead 31) with other data: variable "customer_name": stored "Ann", sent "Anna". On Duplicate → Skip keeps the stored lead, Allow stores a second one.',
			);
			expect(error.description).toContain('Options → On Duplicate → Skip');
			expect(error.description).toContain('set it to Allow');
			expect(error.context.itemIndex).toBe(0);
			scope.done();
		});

		it('names variables and secondary contacts that are only stored or only sent', async () => {
			const scope = duplicateThenRead([
				{
					...stored,
					variables: { customer_name: 'Anna', visits: '3', email: 'a@example.com' },
					secondary_contacts: [
						contact(1, '+4930123456789', { role: 'home' }),
						contact(3, '+4930555555555', {}),
					],
				},
			]);
			const error = await run(parameters).catch((e) => e);
			expect(error.message).toContain(
				'other data: variable "email": stored "a@example.com", not sent; secondary contact +4930123456789: variable "role": stored "home", sent "office"; secondary contact +4930987654321: not stored, sent; secondary contact +4930555555555: stored, not sent.',
			);
			scope.done();
		});

		it('with Continue On Fail the differing lead is an error item paired to its input; the identical one succeeds', async () => {
			const second = { ...parameters, phoneNumber: '+4915199999999' };
			const scope = duplicateThenRead([stored])
				.post('/api/user/lead', { ...sentBody, phone_number: '+4915199999999' })
				.reply(422, duplicate)
				.get('/api/user/leads')
				.query({ phone_number: '+4915199999999', campaign_id: 7, per_page: 10, page: 1 })
				.reply(
					200,
					page([
						{
							...stored,
							id: 32,
							phone_number: '+4915199999999',
							variables: { customer_name: 'Ann', visits: '3' },
						},
					]),
				);
			const { context } = createContext({
				parameters: [parameters, second],
				items: [{ json: { row: 1 } }, { json: { row: 2 } }],
				continueOnFail: true,
			});
			const [output] = await router.call(context);
			expect(output).toEqual([
				{ json: { ...stored, already_stored: true }, pairedItem: { item: 0 } },
				{
					json: {
						error:
							'Campaign 7 already has a lead with the phone number +4915199999999 (lead 32) with other data: variable "customer_name": stored "Ann", sent "Anna". On Duplicate → Skip keeps the stored lead, Allow stores a second one.',
						description: expect.stringContaining('Options → On Duplicate → Skip'),
					},
					pairedItem: { item: 1 },
				},
			]);
			scope.done();
		});

		it('the read-back does not find the lead: the item fails and says so', async () => {
			const scope = duplicateThenRead([{ ...stored, phone_number: '+41915112345678' }]);
			await expect(run(parameters)).rejects.toThrow(
				'Lead → Get Many with its phone number did not find it',
			);
			scope.done();
		});

		it('the read-back fails: the item fails with the reading error, saying nothing was stored', async () => {
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/lead', sentBody)
				.reply(422, duplicate)
				.get('/api/user/leads')
				.query({ phone_number: '+4915112345678', campaign_id: 7, per_page: 10, page: 1 })
				.reply(403, { message: 'This action is unauthorized.' });
			const error = (await run(parameters).catch((e: unknown) => e)) as NodeOperationError;
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toMatch(
				/^Campaign 7 already has a lead with the phone number \+4915112345678; reading it back to compare it with this item failed: ./,
			);
			expect(error.description).toMatch(
				/^Nothing was stored by this item\. To keep the stored lead/,
			);
			scope.done();
		});

		it('On Duplicate = Skip outputs the stored lead whatever its variables, with skipped: true', async () => {
			const differing = { ...stored, variables: { customer_name: 'Ann' } };
			const scope = duplicateThenRead([differing]);
			const output = await run({ ...parameters, options: { onDuplicate: 'skip' } }, [
				{ json: { row: 9 } },
			]);
			expect(output).toEqual(
				items([
					{
						row: 9,
						...differing,
						skipped: true,
						reason:
							'The given data was invalid.: phone_number: The phone number has already been taken in this campaign.',
					},
				]),
			);
			scope.done();
		});

		it('On Duplicate = Fail fails at once, without a read', async () => {
			const scope = nock(TEST_BASE_URL).post('/api/user/lead', sentBody).reply(422, duplicate);
			await expect(run({ ...parameters, options: { onDuplicate: 'fail' } })).rejects.toThrow(
				'already been taken',
			);
			scope.done();
			expect(nock.pendingMocks()).toEqual([]);
		});
	});

	it.each([['015112345678'], ['+49 151 12345678'], ['']])(
		'refuses the phone %j without a request',
		async (phone) => {
			const scope = nock(TEST_BASE_URL).post('/api/user/lead').reply(200, { data: lead });
			await expect(run({ ...base, phoneNumber: phone })).rejects.toThrow(
				'Phone Number must be a phone number in E.164 form',
			);
			expect(scope.isDone()).toBe(false);
		},
	);

	it('refuses a secondary contact phone without a request', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/lead').reply(200, { data: lead });
		await expect(
			run({ ...base, secondaryContacts: { contacts: [{ phoneNumber: '0301234' }] } }),
		).rejects.toThrow(
			'Secondary Contacts → Contact 1 → Phone Number must be a phone number in E.164 form',
		);
		expect(scope.isDone()).toBe(false);
	});
});

describe('Lead → Create: Variables From = Input Fields', () => {
	const base = {
		resource: 'lead',
		operation: 'create',
		campaignId: rl('7'),
		phoneNumber: '+4915112345678',
		variablesFrom: 'inputFields',
		fieldsToLeaveOut: 'phone, phone_number',
	};
	const stored = {
		id: 12,
		campaign_id: 7,
		phone_number: '+4915112345678',
		status: 'created',
		secondary_contacts: [],
	};
	const ok = (variables?: object) => ({
		message: 'Lead created successfully',
		data: { ...stored, variables: variables ?? {} },
	});
	/** A POST whose body is exactly `expected` (no further keys, in this order). */
	const exactly = (expected: object) => (body: object) =>
		JSON.stringify(body) === JSON.stringify(expected);

	it('the parameter: Variables From before the variable fields, default Fields Below; Fields to Leave Out and the variable fields each shown in their mode', () => {
		const names = leadCreateDescription.map((p) => p.name);
		expect(names.indexOf('variablesFrom')).toBe(names.indexOf('phoneNumber') + 1);
		expect(names.indexOf('variablesFrom')).toBeLessThan(names.indexOf('variables'));
		const from = leadCreateDescription.find((p) => p.name === 'variablesFrom')!;
		expect(from).toMatchObject({
			displayName: 'Variables From',
			type: 'options',
			default: 'fieldsBelow',
		});
		expect(
			(from.options as Array<{ name: string; value: string }>).map((o) => [o.name, o.value]),
		).toEqual([
			['Fields Below', 'fieldsBelow'],
			['Input Fields', 'inputFields'],
		]);
		const leaveOut = leadCreateDescription.find((p) => p.name === 'fieldsToLeaveOut')!;
		expect(leaveOut).toMatchObject({
			displayName: 'Fields to Leave Out',
			type: 'string',
			default: 'phone, phone_number',
		});
		expect(leaveOut.displayOptions?.show).toEqual({
			variablesFrom: ['inputFields'],
			resource: ['lead'],
			operation: ['create'],
		});
		for (const name of ['variables', 'variablesJson']) {
			expect(leadCreateDescription.find((p) => p.name === name)?.displayOptions?.show).toEqual({
				variablesFrom: ['fieldsBelow'],
				resource: ['lead'],
				operation: ['create'],
			});
		}
	});

	it('every field of the input item is a variable, the default Fields to Leave Out removed, values sent as they are', async () => {
		const row = {
			phone: '+4915112345678',
			phone_number: '+4915112345678',
			customer_name: 'Ada',
			email: 'ada@example.com',
			visits: 3,
			vip: true,
			note: null,
			tags: ['a', 'b'],
			address: { city: 'Berlin' },
		};
		const variables = {
			customer_name: 'Ada',
			email: 'ada@example.com',
			visits: 3,
			vip: true,
			note: null,
			tags: ['a', 'b'],
			address: { city: 'Berlin' },
		};
		const scope = nock(TEST_BASE_URL)
			.post(
				'/api/user/lead',
				exactly({ phone_number: '+4915112345678', campaign_id: 7, variables }),
			)
			.reply(200, ok(variables));
		expect(await run(base, [{ json: row }])).toEqual(items([{ ...stored, variables }]));
		scope.done();
	});

	it('custom Fields to Leave Out: names trimmed, empty names ignored, names the item lacks ignored', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(
				'/api/user/lead',
				exactly({
					phone_number: '+4915112345678',
					campaign_id: 7,
					variables: { phone_number: 'kept', customer_name: 'Ada' },
				}),
			)
			.reply(200, ok());
		await run({ ...base, fieldsToLeaveOut: ' row ,  Phone,, email , missing ,' }, [
			{
				json: {
					row: 4,
					Phone: '+4915112345678',
					phone_number: 'kept',
					customer_name: 'Ada',
					email: 'ada@example.com',
				},
			},
		]);
		scope.done();
	});

	it('an empty item, or one with only fields left out, sends no variables key', async () => {
		const body = { phone_number: '+4915112345678', campaign_id: 7 };
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', exactly(body))
			.reply(200, ok())
			.post('/api/user/lead', exactly(body))
			.reply(200, ok());
		await run(base, [{ json: {} }]);
		await run(base, [{ json: { phone: '+4915112345678' } }]);
		scope.done();
	});

	it('the name/value pairs and Variables (JSON) are not read in this mode', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(
				'/api/user/lead',
				exactly({
					phone_number: '+4915112345678',
					campaign_id: 7,
					variables: { customer_name: 'Ada' },
				}),
			)
			.reply(200, ok());
		await run(
			{
				...base,
				variables: { values: [{ key: 'plan', value: 'gold' }] },
				variablesJson: 'not JSON',
			},
			[{ json: { customer_name: 'Ada' } }],
		);
		scope.done();
	});

	it('Fields Below (the default, and old workflows without the parameter) is unchanged: the input fields are not sent', async () => {
		const body = {
			phone_number: '+4915112345678',
			campaign_id: 7,
			variables: { plan: 'gold', customer_name: 'Ada' },
		};
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', exactly(body))
			.reply(200, ok())
			.post('/api/user/lead', exactly(body))
			.reply(200, ok());
		const fieldsBelow = {
			...base,
			variablesFrom: 'fieldsBelow',
			variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
			variablesJson: '{"plan":"gold"}',
		};
		const { variablesFrom: _omitted, fieldsToLeaveOut: _also, ...old } = fieldsBelow;
		await run(fieldsBelow, [{ json: { row: 1, city: 'Berlin' } }]);
		await run(old, [{ json: { row: 1, city: 'Berlin' } }]);
		scope.done();
	});

	it('several items, five in flight: each lead gets the fields of its own row, paired to it', async () => {
		const rows = [1, 2, 3, 4, 5].map((n) => ({
			phone: `+491510000000${n}`,
			customer_name: `Lead ${n}`,
			row: n,
		}));
		const scope = nock(TEST_BASE_URL);
		for (const r of rows) {
			scope
				.post(
					'/api/user/lead',
					exactly({
						phone_number: r.phone,
						campaign_id: 7,
						variables: { customer_name: r.customer_name, row: r.row },
					}),
				)
				.reply(200, {
					message: 'ok',
					data: {
						...stored,
						phone_number: r.phone,
						variables: { customer_name: r.customer_name, row: r.row },
					},
				});
		}
		const { context } = createContext({
			parameters: rows.map((r) => ({ ...base, phoneNumber: r.phone, requestsInFlight: 5 })),
			items: rows.map((json) => ({ json })),
		});
		const [output] = await router.call(context);
		expect(output.map((o) => [o.json.phone_number, o.pairedItem])).toEqual(
			rows.map((r, item) => [r.phone, { item }]),
		);
		scope.done();
	});

	it('On Duplicate = Use Stored Lead If Identical compares the stored lead with the variables sent (fields left out, undefined values and dates as sent)', async () => {
		const date = new Date('2026-11-22T10:00:00.000Z');
		const sent = { customer_name: 'Anna', visits: 3, since: '2026-11-22T10:00:00.000Z' };
		const lead = {
			...stored,
			id: 31,
			variables: { customer_name: 'Anna', visits: '3', since: '2026-11-22T10:00:00.000Z' },
		};
		const scope = nock(TEST_BASE_URL)
			.post(
				'/api/user/lead',
				exactly({ phone_number: '+4915112345678', campaign_id: 7, variables: sent }),
			)
			.reply(422, {
				message: 'The given data was invalid.',
				errors: { phone_number: ['The phone number has already been taken in this campaign.'] },
			})
			.get('/api/user/leads')
			.query({ phone_number: '+4915112345678', campaign_id: 7, per_page: 10, page: 1 })
			.reply(200, { data: [lead], current_page: 1, last_page: 1, next_page_url: null });
		const output = await run(base, [
			{
				json: {
					phone: '+4915112345678',
					customer_name: 'Anna',
					visits: 3,
					gone: undefined,
					since: date as unknown as string,
				},
			},
		]);
		expect(output).toEqual(items([{ ...lead, already_stored: true }]));
		scope.done();
	});

	it('a stored lead with other variables fails the item, naming the input field that differs', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead')
			.reply(422, {
				message: 'The given data was invalid.',
				errors: { phone_number: ['The phone number has already been taken in this campaign.'] },
			})
			.get('/api/user/leads')
			.query(true)
			.reply(200, {
				data: [{ ...stored, variables: { customer_name: 'Ann' } }],
				current_page: 1,
				last_page: 1,
				next_page_url: null,
			});
		await expect(
			run(base, [{ json: { phone: '+4915112345678', customer_name: 'Anna' } }]),
		).rejects.toThrow('variable "customer_name": stored "Ann", sent "Anna"');
		scope.done();
	});
});
