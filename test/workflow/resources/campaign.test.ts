/**
 * Campaigns and leads, run as real workflows against the simulator: Get Many
 * and Get, a lead import followed by a campaign start, every operation of
 * both, and all the Lead tests (Lead → Create with its rows, errors and
 * duplicates among them).
 */
import type { IDataObject } from 'n8n-workflow';

import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import {
	byId,
	control,
	LEAD_CREATE,
	runAction,
	SERVICE,
	simulatorForTests,
} from '../helpers/workflows';

const { exercised, op, operations } = operationRunner();

describe('Campaign and Lead: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests();
	const campaigns = operations(sim, 'campaign');
	const leads = operations(sim, 'lead');
	const campaign = (id: number) => sim.state.campaigns.find((c: any) => c.id === id);
	const leadsOf = (id: number) => sim.state.leads.filter((l: any) => l.campaign_id === id);
	const statusPosts = () =>
		sim.log.filter((e) => e.method === 'POST' && e.path === '/api/user/campaigns/update-status');

	it('Campaign: Get Many, Get', async () => {
		expect((await campaigns('getMany', { returnAll: true })).map((c) => c.id)).toEqual([1, 2]);
		expect((await campaigns('get', { campaignId: byId(2) }))[0]).toMatchObject({
			id: 2,
			name: 'Winter Reactivation',
		});
	});

	it('lead import → campaign start: create, import leads, list, update, delete, start, stop, delete the campaign', async () => {
		// Campaign → Create for the outbound assistant 2
		const [created] = await campaigns('create', {
			name: 'Workflow Outreach',
			assistantId: byId(2),
			additionalFields: {
				timezone: 'Europe/Berlin',
				max_calls_in_parallel: 2,
				allowed_hours_start_time: '9:00',
				allowed_hours_end_time: '17:30',
				allowed_days: ['monday', 'tuesday'],
				max_retries: 2,
				retry_interval: 30,
				retry_on_voicemail: true,
				phone_number_ids: [1, 2],
			},
		});
		expect(created).toMatchObject({
			name: 'Workflow Outreach',
			status: 'draft',
			allowed_hours_start_time: '09:00:00',
			retry_interval: 30,
		});
		const id = created.id;
		expect(campaign(id)).toMatchObject({
			assistant_id: 2,
			timezone: 'Europe/Berlin',
			max_calls_in_parallel: 2,
			allowed_days: ['monday', 'tuesday'],
			phone_number_ids: [1, 2],
			retry_on_voicemail: true,
		});
		expect((await campaigns('getMany', { returnAll: true })).map((c) => c.id)).toContain(id);

		// starting an empty campaign is refused by the service, nothing changes
		await expect(campaigns('start', { campaignId: byId(id) })).rejects.toThrow('no leads to call');
		expect(campaign(id).status).toBe('draft');

		// Lead → Create for each imported row
		const rows = [
			{ phone: '+4915100000001', name: 'Ada' },
			{ phone: '+4915100000002', name: 'Bob' },
			{ phone: '+4930100000003', name: 'Cem' },
		];
		const imported = await leads(
			'create',
			{
				campaignId: byId(id),
				phoneNumber: '={{ $json.phone }}',
				variablesJson: '={{ { customer_name: $json.name } }}',
			},
			{ rows },
		);
		expect(imported.map((l) => l.phone_number)).toEqual(rows.map((r) => r.phone));
		expect(leadsOf(id)).toHaveLength(3);

		// Lead → Get Many with filters
		const listed = await leads('getMany', {
			returnAll: true,
			simplify: false,
			filters: { campaign_id: id },
		});
		const simple = await leads('getMany', { returnAll: true, filters: { campaign_id: id } });
		expect(Object.keys(simple[0]).length).toBeLessThanOrEqual(10);
		expect(simple[0]).toMatchObject({ campaign_name: 'Workflow Outreach', status: 'created' });
		expect(listed.map((l) => l.phone_number).sort()).toEqual(rows.map((r) => r.phone).sort());
		expect(listed[0]).toMatchObject({
			campaign: { id, name: 'Workflow Outreach' },
			status: 'created',
		});
		const berlin = await leads('getMany', {
			returnAll: true,
			filters: { campaign_id: id, phone_number: '+4930' },
		});
		expect(berlin.map((l) => l.variables.customer_name)).toEqual(['Cem']);
		expect(
			await leads('getMany', {
				returnAll: false,
				limit: 2,
				filters: { campaign_id: id, status: 'created' },
			}),
		).toHaveLength(2);
		const today = new Date().toISOString().slice(0, 10);
		expect(
			await leads('getMany', { returnAll: true, filters: { campaign_id: id, date_from: today } }),
		).toHaveLength(3);
		expect(sim.log.filter((e) => e.path === '/api/user/leads').pop()?.query).toMatchObject({
			campaign_id: String(id),
			date_from: today,
		});

		// Lead → Update: variables merged, status and number changed
		const ada = imported[0];
		const [updated] = await leads('update', {
			leadId: String(ada.id),
			updateFields: {
				status: 'completed',
				phone_number: '+49 151 0000 0009',
				variables: { values: [{ key: 'plan', value: 'gold' }] },
			},
		});
		expect(updated).toEqual({
			id: ada.id,
			updated: true,
			message: 'Lead successfully updated',
			status: 'completed',
			phone_number: '+4915100000009',
			variables: { plan: 'gold' },
		});
		expect(sim.state.leads.find((l: any) => l.id === ada.id)).toMatchObject({
			status: 'completed',
			phone_number: '+4915100000009',
			variables: { customer_name: 'Ada', plan: 'gold' },
		});
		expect(
			await leads('getMany', {
				returnAll: true,
				filters: { campaign_id: id, status: 'completed' },
			}),
		).toHaveLength(1);
		await expect(
			leads('update', { leadId: '99999', updateFields: { status: 'completed' } }),
		).rejects.toThrow('Lead not found');

		// Lead → Delete
		const bob = imported[1];
		expect(await leads('delete', { leadId: String(bob.id) })).toEqual([
			{ deleted: true, id: bob.id, message: 'Lead deleted successfully' },
		]);
		expect(leadsOf(id).map((l: any) => l.id)).not.toContain(bob.id);
		await expect(leads('delete', { leadId: String(bob.id) })).rejects.toThrow('Lead not found');

		// Campaign → Start: refused without balance, then started once
		await control(sim, 'user', { total_balance: 0 });
		await expect(campaigns('start', { campaignId: byId(id) })).rejects.toThrow(
			'Insufficient balance to start the campaign. Please top up your account.',
		);
		expect(campaign(id).status).toBe('draft');
		await control(sim, 'user', { total_balance: 25 });
		const before = statusPosts().length;
		expect(await campaigns('start', { campaignId: byId(id) })).toEqual([
			{ campaign_id: id, status: 'in-progress', message: 'Campaign started successfully.' },
		]);
		expect(
			statusPosts()
				.slice(before)
				.map((e) => e.body),
		).toEqual([{ campaign_id: id, action: 'start' }]);
		expect(campaign(id).status).toBe('in-progress');

		// Campaign → Stop
		expect(await campaigns('stop', { campaignId: byId(id) })).toEqual([
			{ campaign_id: id, status: 'stopped', message: 'Campaign stopped successfully.' },
		]);
		expect(campaign(id).status).toBe('stopped');

		// Campaign → Delete: its leads go with it
		expect(leadsOf(id).length).toBe(2);
		expect(await campaigns('delete', { campaignId: byId(id) })).toEqual([
			{ deleted: true, id, message: 'Campaign deleted successfully' },
		]);
		expect(campaign(id)).toBeUndefined();
		expect(leadsOf(id)).toHaveLength(0);
		expect(await leads('getMany', { returnAll: true, filters: { campaign_id: id } })).toEqual([]);
		await expect(campaigns('delete', { campaignId: byId(id) })).rejects.toThrow(
			'Campaign not found',
		);
	});

	it('Campaign → Create: the service refuses an inbound assistant and an unknown number, the node an out-of-range value', async () => {
		const count = sim.state.campaigns.length;
		for (const [name, assistant, additionalFields, refusal] of [
			['Inbound', 1, {}, 'Assistant not found or not an outbound assistant.'],
			[
				'Unknown number',
				2,
				{ phone_number_ids: '1,999' },
				'phone_number_ids.1: The selected phone_number_ids.1 is invalid.',
			],
			[
				'Too many',
				2,
				{ max_calls_in_parallel: 11 },
				'Max Calls in Parallel must be a whole number from 1 to 10, got 11',
			],
		] as const) {
			await expect(
				campaigns('create', { name, assistantId: byId(assistant), additionalFields }),
			).rejects.toThrow(refusal);
		}
		expect(
			sim.log.filter((e) => e.method === 'POST' && e.path === '/api/user/campaigns'),
		).toHaveLength(3); // the refused one was not sent
		expect(sim.state.campaigns).toHaveLength(count);
	});

	it("Campaign → Create: the plan's campaign limit answers 403 with the service message", async () => {
		const rows = Array.from({ length: 10 - sim.state.campaigns.length }, (_, n) => ({
			name: `Filler ${n}`,
		}));
		await campaigns(
			'create',
			{ name: '={{ $json.name }}', assistantId: byId(2), additionalFields: {} },
			{ rows },
		);
		expect(sim.state.campaigns).toHaveLength(10);
		await expect(
			campaigns('create', { name: 'One too many', assistantId: byId(2), additionalFields: {} }),
		).rejects.toThrow('maximum of 10 campaigns');
		expect(sim.state.campaigns).toHaveLength(10);
	});

	it('PUT /api/leads/{id} (outside /api/user/) still needs the API key', async () => {
		const response = await fetch(`${sim.url}/api/leads/1`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify({ status: 'completed' }),
		});
		expect(response.status).toBe(401);
		expect(await response.json()).toEqual({ message: 'Unauthenticated.' });
	});

	describe('Lead: Create', () => {
		const phones = [
			'+4915100000101',
			'+4915100000102',
			'not-a-phone',
			'+4915100000104',
			'+4915100000105',
		];
		const rows = phones.map((phone, n) => ({ phone, name: `Lead ${n}` }));
		const parameters = (suffix: string, extra: IDataObject = {}) => ({
			resource: 'lead',
			operation: 'create',
			campaignId: byId(1),
			phoneNumber: `={{ $json.phone === "not-a-phone" ? $json.phone : $json.phone + "${suffix}" }}`,
			variablesJson: '={{ { customer_name: $json.name } }}',
			...extra,
		});
		const leadsIn = (suffix: string) =>
			sim.state.leads.filter((l: any) => String(l.phone_number).endsWith(suffix));

		it.each([
			['one request at a time', '1', {}],
			['five requests in flight', '2', { requestsInFlight: 5 }],
		])(
			'5 rows, one invalid phone, Continue On Fail (%s): 4 leads + 1 error item, each paired to its row',
			async (_label, suffix, extra) => {
				const result = await runAction(sim, parameters(suffix, extra), {
					rows,
					node: { onError: 'continueRegularOutput' },
				});
				exercised.add('lead:create');
				expect(result.status).toBe('success');
				const items = result.outputOf(SERVICE);
				expect(items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
				expect(items.map((i) => (i.json.error ? 'error' : i.json.phone_number))).toEqual([
					`+4915100000101${suffix}`,
					`+4915100000102${suffix}`,
					'error',
					`+4915100000104${suffix}`,
					`+4915100000105${suffix}`,
				]);
				expect(items[2].json.error).toEqual(expect.stringContaining('not-a-phone'));
				expect(items[0].json.variables).toEqual({ customer_name: 'Lead 0' });
				expect(leadsIn(suffix)).toHaveLength(4);
			},
		);

		it('without Continue On Fail the run stops at the invalid row and names it', async () => {
			const result = await runAction(sim, parameters('3'), { rows });
			expect(result.status).toBe('error');
			const error = result.errorOf(SERVICE) as any;
			expect(error.message).toEqual(expect.stringContaining('not-a-phone'));
			expect(error.context.itemIndex).toBe(2);
			expect(result.outputOf(SERVICE)).toEqual([]);
			expect(leadsIn('3')).toHaveLength(2); // rows 0 and 1 were sent before row 2 failed
		});

		it('Variables From = Input Fields: every column of each row is a variable of its lead, the phone column left out; running it again finds them identical', async () => {
			const imported = [
				{ phone: '+4915100000201', customer_name: 'Ada', plan: 'gold', visits: 3, vip: true },
				{ phone: '+4915100000202', customer_name: 'Bob', plan: 'silver', visits: 0, vip: false },
				{ phone: '+4915100000203', customer_name: 'Cem', plan: 'gold', visits: 12, vip: true },
			];
			const parameters = { ...LEAD_CREATE, variablesFrom: 'inputFields', requestsInFlight: 3 };
			const variablesOf = ({ phone: _phone, ...variables }: IDataObject) => variables;
			const output = await op(sim, parameters, { rows: imported });
			expect(output.map((l) => [l.phone_number, l.variables])).toEqual(
				imported.map((r) => [r.phone, variablesOf(r)]),
			);
			const posts = sim.log
				.filter((e) => e.method === 'POST' && e.path === '/api/user/lead')
				.slice(-3);
			const byPhone = (a: any, b: any) =>
				String(a.phone_number).localeCompare(String(b.phone_number));
			expect(posts.map((e) => e.body).sort(byPhone)).toEqual(
				imported.map((r) => ({ phone_number: r.phone, campaign_id: 1, variables: variablesOf(r) })),
			);
			for (const r of imported) {
				const stored = sim.state.leads.filter((l: any) => l.phone_number === r.phone);
				expect(stored).toHaveLength(1);
				expect(stored[0]).toMatchObject({ campaign_id: 1, variables: variablesOf(r) });
				expect(stored[0].variables).not.toHaveProperty('phone');
			}
			// the same import again (On Duplicate's default): each stored lead is the one sent
			const again = await op(sim, parameters, { rows: imported });
			expect(again.map((l) => [l.phone_number, l.already_stored])).toEqual(
				imported.map((r) => [r.phone, true]),
			);
			expect(
				sim.state.leads.filter((l: any) => imported.some((r) => r.phone === l.phone_number)),
			).toHaveLength(3);
		});

		it('On Duplicate "skip" passes the row through, marked as skipped', async () => {
			const again = await leads(
				'create',
				{ campaignId: byId(1), phoneNumber: '+49151000001011', options: { onDuplicate: 'skip' } },
				{
					rows: [{ row: 1 }],
				},
			);
			expect(again).toEqual([expect.objectContaining({ row: 1, skipped: true })]);
		});
	});

	it('ran every operation of Campaign and Lead', () => {
		expect(ownRuns('campaign', exercised)).toEqual([...RESOURCE_FILES.campaign].sort());
	});
});
