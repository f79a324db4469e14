/**
 * Rate limits in a real workflow: the service answers 429 with Retry-After,
 * the node waits and sends again, and every row is created exactly once.
 */
import type { IDataObject } from 'n8n-workflow';

import { LEAD_CREATE, runAction, SERVICE, simulatorForTests } from './helpers/workflows';

describe('rate limits in a workflow', () => {
	// 3 requests per second, far below what the credential allows itself
	const sim = simulatorForTests({ rateLimit: { perMinute: 1000, burst: 3, burstWindowMs: 1000 } });

	/**
	 * A lead per phone through Lead → Create (`extra`: more parameters): the run succeeds, an item
	 * per row in input order, each lead stored once. The lead requests it sent.
	 */
	async function createLeads(phones: string[], extra: IDataObject = {}) {
		const before = sim.log.length;
		const rows = phones.map((phone) => ({ phone }));
		const result = await runAction(sim, { ...LEAD_CREATE, ...extra }, { rows });

		expect(result.error).toBeUndefined();
		expect(result.outputOf(SERVICE).map((i) => [i.json.phone_number, i.pairedItem])).toEqual(
			phones.map((phone, item) => [phone, { item }]),
		);
		expect(sim.state.leads.filter((l: any) => phones.includes(l.phone_number))).toHaveLength(
			phones.length,
		);
		const posts: any[] = sim.log.slice(before).filter((e) => e.path === '/api/user/lead');
		return posts;
	}

	it('6 lead rows against a limit of 3 per second: 429s are waited out, each lead is created once, in order', async () => {
		const phones = [1, 2, 3, 4, 5, 6].map((n) => `+49151777000${n}`);
		// one request at a time, so the order of sending and the wait after the 429 are seen one by one
		const posts = await createLeads(phones, { requestsInFlight: 1 });
		const refused = posts.findIndex((e) => e.status === 429);
		expect(refused).toBeGreaterThan(0);
		// the retry waited for Retry-After (1 s)
		expect(
			Date.parse(posts[refused + 1].time) - Date.parse(posts[refused].time),
		).toBeGreaterThanOrEqual(900);
		expect(posts.filter((e) => e.status < 300).map((e: any) => e.body.phone_number)).toEqual(
			phones,
		);
	});

	it('the same with Requests in Flight left to follow the budget: several in flight, each lead once, output in input order', async () => {
		const phones = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `+49151778000${n}`);
		const posts = await createLeads(phones);
		expect(
			posts
				.filter((e) => e.status < 300)
				.map((e: any) => e.body.phone_number)
				.sort(),
		).toEqual([...phones].sort());
	});
});
