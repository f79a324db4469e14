/**
 * Lead → Create with Variables From = Input Fields: every field of the input
 * item a variable, but the Fields to Leave Out; compared as sent when On
 * Duplicate reads the stored lead back.
 */
import nock from 'nock';

import { description as leadCreateDescription } from '../../../../nodes/VoiceChatAssistant/actions/lead/create.operation';
import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { items, run } from '../helpers';
import {
	base as fieldsBelow,
	duplicateThenReadBack,
	onePage,
	storedLead,
	taken,
} from './createFixtures';

describe('Lead → Create: Variables From = Input Fields', () => {
	const base = {
		...fieldsBelow,
		variablesFrom: 'inputFields',
		fieldsToLeaveOut: 'phone, phone_number',
	};
	const stored = { ...storedLead, id: 12 };
	const ok = (variables?: object) => ({
		message: 'Lead created successfully',
		data: { ...stored, variables: variables ?? {} },
	});
	/** A POST whose body is exactly `expected` (no further keys, in this order). */
	const exactly = (expected: object) => (body: object) =>
		JSON.stringify(body) === JSON.stringify(expected);
	/** `times` creates of the lead with exactly `variables` (no variables key when undefined), answered with it. */
	const expectCreate = (variables?: object, times = 1) =>
		nock(TEST_BASE_URL)
			.post(
				'/api/user/lead',
				exactly({
					phone_number: '+4915112345678',
					campaign_id: 7,
					...(variables && { variables }),
				}),
			)
			.times(times)
			.reply(200, ok(variables));

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
		const variables = {
			customer_name: 'Ada',
			email: 'ada@example.com',
			visits: 3,
			vip: true,
			note: null,
			tags: ['a', 'b'],
			address: { city: 'Berlin' },
		};
		const row = { phone: '+4915112345678', phone_number: '+4915112345678', ...variables };
		const scope = expectCreate(variables);
		expect(await run(base, [{ json: row }])).toEqual(items([{ ...stored, variables }]));
		scope.done();
	});

	it('custom Fields to Leave Out: names trimmed, empty names ignored, names the item lacks ignored', async () => {
		const scope = expectCreate({ phone_number: 'kept', customer_name: 'Ada' });
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
		const scope = expectCreate(undefined, 2);
		await run(base, [{ json: {} }]);
		await run(base, [{ json: { phone: '+4915112345678' } }]);
		scope.done();
	});

	it('the name/value pairs and Variables (JSON) are not read in this mode', async () => {
		const scope = expectCreate({ customer_name: 'Ada' });
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
		const scope = expectCreate({ plan: 'gold', customer_name: 'Ada' }, 2);
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
		const scope = duplicateThenReadBack(
			exactly({ phone_number: '+4915112345678', campaign_id: 7, variables: sent }),
		).reply(200, onePage([lead]));
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
			.reply(422, taken)
			.get('/api/user/leads')
			.query(true)
			.reply(200, onePage([{ ...stored, variables: { customer_name: 'Ann' } }]));
		await expect(
			run(base, [{ json: { phone: '+4915112345678', customer_name: 'Anna' } }]),
		).rejects.toThrow('variable "customer_name": stored "Ann", sent "Anna"');
		scope.done();
	});
});
