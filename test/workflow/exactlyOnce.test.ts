/**
 * Exactly once when answers get lost: 1,000 leads through Lead → Create while
 * one lead request in ten fails in one of four ways (503 or 500 before the
 * service stored anything, a 502 or a dropped connection after it stored the
 * lead), none more than twice. Every lead is stored once, no item fails, and
 * the run succeeds with and without Continue On Fail.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	LEAD_IMPORT_PARAMETERS,
	control,
	runAction,
	SERVICE,
	simulatorForTests,
} from './helpers/workflows';

const KINDS = ['refuse-503', 'refuse-500', 'lose-502', 'lose-reset'];

describe('exactly once: Lead → Create with lost answers', () => {
	const sim = simulatorForTests();

	async function importLeads(prefix: string, count: number, node: IDataObject) {
		await control(sim, 'faults', { clear: true });
		await control(sim, 'faults', {
			method: 'POST',
			path: '/api/user/lead',
			rate: 0.1,
			kinds: KINDS,
			seed: prefix.length * 7 + 3,
			// one lead's request fails at most twice: three 500s in a row are the service failing that
			// lead (the item's error, by design), and arrival order under concurrency varies per run
			maxPerBody: 2,
		});
		const rows = Array.from({ length: count }, (_, i) => ({
			phone: `+49151${prefix}${String(i).padStart(5, '0')}`,
			name: `Lead ${i}`,
		}));
		const result = await runAction(
			sim,
			LEAD_IMPORT_PARAMETERS,
			{ rows, node },
			{ requestsPerMinute: 1_000_000, burst: 1_000_000 },
		);
		const faults = (await control<{ faults: any[] }>(sim, 'faults')).faults[0];
		await control(sim, 'faults', { clear: true });
		return { result, rows, injected: faults.injected as Record<string, number> };
	}

	const storedPhones = (prefix: string) =>
		sim.state.leads
			.filter((l: any) => l.campaign_id === 1 && l.phone_number.startsWith(`+49151${prefix}`))
			.map((l: any) => l.phone_number);

	it('1,000 leads, 10 % of lead requests failing four ways, Continue On Fail: 1,000 stored once, 0 error items', async () => {
		const { result, rows, injected } = await importLeads('11', 1000, {
			onError: 'continueRegularOutput',
		});
		expect(result.status).toBe('success');
		for (const kind of KINDS) expect(injected[kind]).toBeGreaterThan(10);
		const items = result.outputOf(SERVICE);
		expect(items).toHaveLength(1000);
		expect(items.filter((i) => i.json.error)).toEqual([]);
		expect(items.map((i) => i.json.phone_number)).toEqual(rows.map((r) => r.phone));
		expect(items.map((i) => i.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		const phones = storedPhones('11');
		expect(phones).toHaveLength(1000);
		expect(new Set(phones).size).toBe(1000);
		// the leads whose answer was lost are reported as stored by the earlier attempt, with the real lead
		const earlier = items.filter((i) => i.json.created_by_earlier_attempt);
		expect(earlier.length).toBeGreaterThan(0);
		expect(earlier.every((i) => typeof i.json.id === 'number')).toBe(true);
		// a lost answer that stored the lead costs one read, not a resend and a read: the phone of each
		// lost answer (502, reset) is read back, and a create that reached the service once is not sent again
		const log = sim.log.filter(
			(e: any) =>
				e.body?.phone_number?.startsWith?.('+4915111') ||
				e.query?.phone_number?.startsWith?.('+4915111'),
		);
		const lostPhones = log
			.filter((e: any) => e.method === 'POST' && (e.status === 502 || e.status === 'reset'))
			.map((e: any) => e.body.phone_number);
		expect(lostPhones.length).toBeGreaterThan(10);
		const reads = new Set(
			log.filter((e: any) => e.method === 'GET').map((e: any) => e.query.phone_number),
		);
		expect(lostPhones.filter((phone: string) => !reads.has(phone))).toEqual([]);
		const stored: any[] = log.filter(
			(e: any) => e.method === 'POST' && e.status !== 503 && e.status !== 500,
		);
		const storing = new Map<string, number>();
		for (const e of stored)
			storing.set(e.body.phone_number, (storing.get(e.body.phone_number) ?? 0) + 1);
		expect([...storing.values()].filter((n) => n > 1)).toEqual([]);
	}, 240_000);

	it('the same without Continue On Fail: the run succeeds', async () => {
		const { result, injected } = await importLeads('22', 300, {});
		expect(result.status).toBe('success');
		expect(Object.values(injected).reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
		expect(result.outputOf(SERVICE)).toHaveLength(300);
		const phones = storedPhones('22');
		expect(phones).toHaveLength(300);
		expect(new Set(phones).size).toBe(300);
	}, 240_000);

	it.each([
		['lose-502', 'knowledgebase', '/api/user/knowledgebases', { name: 'Lost answer KB' }],
		[
			'lose-reset',
			'tool',
			'/api/user/tools',
			{
				name: 'lost_answer_tool',
				description: 'A tool',
				endpoint: 'https://example.com/t',
				method: 'GET',
				additionalFields: {},
			},
		],
	] as const)(
		'a %s create of a %s: one object, one success item',
		async (kind, resource, path, fields) => {
			await control(sim, 'faults', { method: 'POST', path, rate: 1, kinds: [kind] });
			const result = await runAction(sim, { resource, operation: 'create', ...fields });
			await control(sim, 'faults', { clear: true });
			expect(result.status).toBe('success');
			const items = result.outputOf(SERVICE);
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({ name: fields.name, created_by_earlier_attempt: true });
			const stored = (
				resource === 'knowledgebase' ? sim.state.knowledgebases : sim.state.tools
			).filter((o: any) => o.name === fields.name);
			expect(stored).toHaveLength(1);
			expect(sim.log.filter((e) => e.method === 'POST' && e.path === path)).toHaveLength(1);
		},
	);
});
