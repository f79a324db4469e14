/**
 * Lead → Create when the campaign has a lead with the phone number already:
 * On Duplicate = Allow, Skip, Fail and Use Stored Lead If Identical (the
 * default, which reads the stored lead back and compares it with the item).
 */
import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';
import type { INodeExecutionData } from 'n8n-workflow';

import { description as leadCreateDescription } from '../../../../nodes/VoiceChatAssistant/actions/lead/create.operation';
import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { items, run } from '../helpers';
import {
	PHONE,
	base,
	duplicate,
	duplicateThenReadBack,
	invalidCampaign,
	lead,
	onePage,
	storedLead,
	taken,
} from './createFixtures';

/** Lead → Create of PHONE in campaign 7 with On Duplicate = `onDuplicate`, over `input`: its output. */
const create = (onDuplicate: string, input?: INodeExecutionData[]) =>
	run({ ...base, options: { onDuplicate } }, input);

describe('Lead → Create', () => {
	it.each<[string, { id: number }]>([
		[
			'On Duplicate = Allow sends allow_dupplicate: true (spelled as the service spells it)',
			lead(2, PHONE),
		],
		[
			'On Duplicate = Allow sends allow_dupplicate: true, spelled as the service spells it',
			storedLead,
		],
	])('%s', async (_title, created) => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', { phone_number: PHONE, campaign_id: 7, allow_dupplicate: true })
			.reply(200, { message: 'Lead created successfully', data: created });
		const output = await create('allow');
		expect(output[0].json.id).toBe(created.id);
		expect(output).toEqual(items([created]));
		scope.done();
	});

	it.each<[string, object, object, number, string]>([
		[
			'On Duplicate = Skip outputs the input with skipped: true and the service reason, and the stored lead',
			duplicate,
			lead(5, PHONE),
			12,
			'The given data was invalid.: phone_number: A lead with this phone number already exists in this campaign.',
		],
		[
			'On Duplicate = Skip outputs the input item with skipped: true and the reason, and the stored lead',
			taken,
			storedLead,
			3,
			'The given data was invalid.: phone_number: The phone number has already been taken in this campaign.',
		],
	])('%s', async (_title, answer, stored, row, reason) => {
		const scope = duplicateThenReadBack({ phone_number: PHONE, campaign_id: 7 }, { answer }).reply(
			200,
			onePage([stored]),
		);
		const output = await create('skip', [{ json: { row, phone: PHONE } }]);
		expect(output).toEqual(items([{ row, phone: PHONE, ...stored, skipped: true, reason }]));
		scope.done();
	});

	it.each([
		[
			'On Duplicate = Skip still fails on other errors',
			'campaign_id: The selected campaign id is invalid.',
		],
		['On Duplicate = Skip does not swallow other 422s', 'campaign_id'],
	])('%s', async (_title, message) => {
		nock(TEST_BASE_URL).post('/api/user/lead').reply(422, invalidCampaign);
		await expect(create('skip')).rejects.toThrow(message);
	});

	it.each([
		[
			'On Duplicate = Fail fails with the service message',
			duplicate,
			'already exists in this campaign',
		],
		[
			'On Duplicate = Fail fails with the service text and sends no allow flag',
			taken,
			'already been taken',
		],
	])('%s', async (_title, answer, message) => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', { phone_number: PHONE, campaign_id: 7 })
			.reply(422, answer);
		await expect(create('fail')).rejects.toThrow(message);
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
		/** The create (answered "duplicate") and the one read-back by phone and campaign, exactly. */
		const duplicateThenRead = (data: object[]) =>
			duplicateThenReadBack(sentBody).reply(200, onePage(data));

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
			const scope = duplicateThenRead([stored]);
			duplicateThenReadBack(
				{ ...sentBody, phone_number: '+4915199999999' },
				{ phone: '+4915199999999', scope },
			).reply(
				200,
				onePage([
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
			const scope = duplicateThenReadBack(sentBody).reply(403, {
				message: 'This action is unauthorized.',
			});
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
			const scope = nock(TEST_BASE_URL).post('/api/user/lead', sentBody).reply(422, taken);
			await expect(run({ ...parameters, options: { onDuplicate: 'fail' } })).rejects.toThrow(
				'already been taken',
			);
			scope.done();
			expect(nock.pendingMocks()).toEqual([]);
		});
	});
});
