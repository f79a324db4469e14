/**
 * Running an interrupted import again, in real workflow runs against the
 * simulator: a first execution stores the first 100 of 200 leads (as a killed
 * worker or a stopped import leaves it), then the whole import runs again with
 * the node's defaults (On Duplicate: Use Stored Lead If Identical). Every lead
 * is stored once and no item fails; a stored lead with other variables fails
 * its item and says what differs.
 */
import type { IDataObject } from 'n8n-workflow';

import { LEAD_IMPORT_PARAMETERS, runAction, SERVICE, simulatorForTests } from './helpers/workflows';

describe('run it again: Lead → Create after an interrupted import', () => {
	const sim = simulatorForTests();

	const importLeads = async (rows: IDataObject[], node: IDataObject = {}) =>
		await runAction(sim, LEAD_IMPORT_PARAMETERS, { rows, node });
	const storedWith = (prefix: string) =>
		sim.state.leads.filter((l: any) => l.campaign_id === 1 && l.phone_number.startsWith(prefix));
	const requests = (from: number, method: string, path: string) =>
		sim.log.slice(from).filter((e) => e.method === method && e.path === path);

	it('200 leads, interrupted after 100, run again with the defaults and Continue On Fail: 200 items, 0 errors, 200 leads stored once', async () => {
		const rows = Array.from({ length: 200 }, (_, i) => ({
			phone: `+4915177${String(i).padStart(5, '0')}`,
			name: `Lead ${i}`,
		}));

		const first = await importLeads(rows.slice(0, 100));
		expect(first.status).toBe('success');
		const firstIds = first.outputOf(SERVICE).map((i) => i.json.id);
		expect(storedWith('+4915177')).toHaveLength(100);

		const before = sim.log.length;
		const again = await importLeads(rows, { onError: 'continueRegularOutput' });
		expect(again.status).toBe('success');
		const items = again.outputOf(SERVICE);
		expect(items).toHaveLength(200);
		expect(items.filter((i) => i.json.error)).toEqual([]);
		expect(items.map((i) => i.json.phone_number)).toEqual(rows.map((r) => r.phone));
		expect(items.map((i) => i.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		expect(items.every((i) => typeof i.json.id === 'number')).toBe(true);
		// the first 100 are the leads of the interrupted run, marked; the rest are new
		expect(items.map((i) => i.json.already_stored === true)).toEqual(rows.map((_, n) => n < 100));
		expect(items.slice(0, 100).map((i) => i.json.id)).toEqual(firstIds);
		expect(items.slice(0, 100).map((i) => (i.json.variables as IDataObject).customer_name)).toEqual(
			rows.slice(0, 100).map((r) => r.name),
		);

		const phones = storedWith('+4915177').map((l: any) => l.phone_number);
		expect(phones).toHaveLength(200);
		expect(new Set(phones).size).toBe(200);
		// the cost: one create per row, one read per lead that was already stored
		expect(requests(before, 'POST', '/api/user/lead')).toHaveLength(200);
		const reads = requests(before, 'GET', '/api/user/leads');
		expect(reads).toHaveLength(100);
		expect(reads[0].query).toMatchObject({
			phone_number: rows[0].phone,
			campaign_id: '1',
			per_page: '10',
			page: '1',
		});
	}, 120_000);

	it('a stored lead whose variables differ: the run fails at that row by default and names the difference', async () => {
		const rows = [
			{ phone: '+4915178000001', name: 'Ada' },
			{ phone: '+4915178000002', name: 'Anna' },
		];
		expect((await importLeads([{ phone: rows[1].phone, name: 'Ann' }])).status).toBe('success');

		const result = await importLeads(rows);
		expect(result.status).toBe('error');
		const error = result.errorOf(SERVICE) as any;
		expect(error.message).toContain('variable "customer_name": stored "Ann", sent "Anna"');
		expect(error.message).toContain(
			'On Duplicate → Skip keeps the stored lead, Allow stores a second one',
		);
		expect(error.context.itemIndex).toBe(1);
		// nothing was changed: the stored lead keeps its variables, and there is one of it
		const stored = storedWith('+4915178000002');
		expect(stored).toHaveLength(1);
		expect(stored[0].variables).toEqual({ customer_name: 'Ann' });

		// with Continue On Fail the row is an error item paired to it, the others go on
		const next = await importLeads(rows, { onError: 'continueRegularOutput' });
		expect(next.status).toBe('success');
		const items = next.outputOf(SERVICE);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json).toMatchObject({ phone_number: rows[0].phone, already_stored: true });
		expect(items[1].json.error).toEqual(
			expect.stringContaining('variable "customer_name": stored "Ann", sent "Anna"'),
		);
	}, 60_000);
});
