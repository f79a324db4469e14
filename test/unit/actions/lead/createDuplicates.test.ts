/**
 * Lead → Create when the campaign has a lead with the phone number already:
 * On Duplicate = Allow, Skip, Fail and Use Stored Lead If Identical (the
 * default, which reads the stored lead back and compares it with the item).
 */
import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';

import { description as leadCreateDescription } from '../../../../nodes/VoiceChatAssistant/actions/lead/create.operation';
import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { items, rl, run } from '../helpers';
import { campaign, duplicate, lead } from './createFixtures';

describe('Lead → Create', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

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
});
