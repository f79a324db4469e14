/**
 * Lead Status Changed and Campaign Status Changed in a real workflow (n8n-core's
 * PollContext) against the simulator, at a real campaign's size and across a
 * restart of n8n: a campaign of 20,000 leads (LEADS_AT_SCALE=100000 for a real
 * campaign's size) started right after activation and run while the trigger polls, in both orders the lead list may have
 * (SPEC promises none); a restart modelled as n8n's default poller saves
 * (the workflow's static data of the last poll that emitted, a new process).
 */
import type { IDataObject } from 'n8n-workflow';

import { DefaultPoller } from './helpers/polling';
import type { Simulator } from './helpers/workflows';
import {
	CAMPAIGN_EVENTS as CAMPAIGNS,
	LEAD_EVENTS as LEADS,
	leadAndCampaignWorkflow,
	control,
	serviceApi,
	serviceRequest,
	setCampaignStatus,
	simCredentials,
	simulatorForTests,
} from './helpers/workflows';

/**
 * The size of the campaign in each order. The unit layer runs both orders at 100,000 (the trigger's
 * logic at a real campaign's size); here n8n-core's PollContext and its saving of the static data
 * between polls are what is tested, with a campaign a poll cannot read whole (LEADS_AT_SCALE sets
 * the newest-first run's size: 100,000 took about 2 minutes alone, up to 4 beside the e2e lines).
 */
const COUNTS = { newest: Number(process.env.LEADS_AT_SCALE ?? 20_000), oldest: 20_000 };

/** The campaign's leads and its changes (`changes`: those the campaign trigger emits). */
const workflow = (campaignId: number, changes = ['started', 'stopped', 'completed']) =>
	leadAndCampaignWorkflow(campaignId, { campaignChanges: changes });

async function newCampaign(sim: Simulator) {
	const created = await serviceApi(sim, 'POST', '/api/user/campaigns', {
		name: 'Winter Calls',
		assistant_id: 2,
		max_calls_in_parallel: 10,
	});
	return Number((created.data as IDataObject).id);
}

/** n8n's default poller, over the simulator. */
const poller = (sim: Simulator, json: ReturnType<typeof workflow>) =>
	new DefaultPoller(json, { credentials: simCredentials(sim) });

describe('Lead and campaign events at scale and across restarts (simulator)', () => {
	const sim = simulatorForTests({ rateLimit: false }, { resetEach: true });
	afterEach(() => sim.setConfig({ leadOrder: 'newest' }));

	it.each(['newest', 'oldest'] as const)(
		`a campaign of ${COUNTS.newest} (newest first) or ${COUNTS.oldest} (oldest first) leads run while the trigger polls, lead list %s first: each final status once, at most 10 requests a poll`,
		async (order) => {
			const COUNT = COUNTS[order];
			sim.setConfig({ leadOrder: order });
			const campaignId = await newCampaign(sim);
			const seeded = await control<IDataObject>(sim, `campaigns/${campaignId}/leads`, {
				count: COUNT,
				outcomes: { every: 9, outcome: 'reached-max-retries' },
			});
			expect(seeded).toMatchObject({ created: COUNT, total: COUNT });
			const n8n = poller(sim, workflow(campaignId));
			const emitted = new Map<number, IDataObject[]>();
			let most = 0;
			let polls = 0;
			const poll = async () => {
				const before = sim.log.length;
				for (const item of await n8n.poll(LEADS)) {
					const id = Number(item.id);
					emitted.set(id, [...(emitted.get(id) ?? []), item]);
				}
				polls++;
				const requests = sim.log.slice(before);
				most = Math.max(most, requests.length);
				for (const request of requests) {
					expect(request.path).toBe('/api/user/leads');
					expect(request.query).toMatchObject({ campaign_id: String(campaignId), per_page: '100' });
				}
			};
			await poll(); // activation
			await setCampaignStatus(sim, campaignId, 'start');
			// one step between two polls: 300 calls a step while the first round reads (it reads
			// 300 leads in a call a poll), then 5,000
			const learning = () => {
				const node = n8n.test.staticData[`node:${LEADS}`] as IDataObject | undefined;
				return (node?.leads as IDataObject | undefined)?.learning === true;
			};
			expect(learning()).toBe(true);
			let status = 'in-progress';
			while (status !== 'completed') {
				const advanced = await control<{ campaign: IDataObject }>(
					sim,
					`campaigns/${campaignId}/advance`,
					{ leads: learning() ? 300 : 5_000 },
				);
				status = String(advanced.campaign.status);
				await poll();
			}
			// one more round reads every page again
			for (let i = 0; i < 100; i++) await poll();
			expect(most).toBeLessThanOrEqual(10);
			const leads = (
				sim.state.leads as Array<{ id: number; status: string; campaign_id: number }>
			).filter((lead) => lead.campaign_id === campaignId);
			const wrong = leads.filter((lead) => {
				const items = emitted.get(lead.id) ?? [];
				return items.length !== 1 || items[0].status !== lead.status;
			});
			expect(
				wrong.slice(0, 3).map((lead) => ({ lead, emitted: emitted.get(lead.id) ?? [] })),
			).toEqual([]);
			expect(wrong).toHaveLength(0);
			expect(emitted.size).toBe(COUNT);
			expect(leads.filter((lead) => lead.status === 'reached-max-retries')).toHaveLength(
				Math.floor(COUNT / 9),
			);
			const size = JSON.stringify(n8n.test.staticData).length;
			expect(size).toBeLessThan(80_000);
			process.stdout.write(
				`workflow, ${COUNT} leads (${order} first): ${polls} polls, at most ${most} requests a poll, static data ${size} bytes\n`,
			);
		},
		// CPU-bound (LEADS_AT_SCALE=100000: about 2 minutes alone, up to 4 beside the e2e layers on a
		// 2-core machine); the limit is the machine's, the test's asserts are counts
		480_000,
	);

	it('stop (not watched, not saved), restart of n8n, start again: the second start is emitted; a lead set back and completed again too', async () => {
		const campaignId = await newCampaign(sim);
		await control(sim, `campaigns/${campaignId}/leads`, { count: 3 });
		const n8n = poller(sim, workflow(campaignId, ['started']));
		await n8n.poll(CAMPAIGNS);
		await n8n.poll(LEADS);
		await setCampaignStatus(sim, campaignId, 'start');
		expect(await n8n.poll(CAMPAIGNS)).toEqual([
			expect.objectContaining({ id: campaignId, previous_status: 'draft', change: 'started' }),
		]);
		await control(sim, `campaigns/${campaignId}/advance`, { ticks: 2, leads: 1 });
		const ours = () =>
			(sim.state.leads as Array<{ id: number; status: string; campaign_id: number }>).filter(
				(l) => l.campaign_id === campaignId,
			);
		const lead = ours()[0];
		expect(lead.status).toBe('completed');
		expect(await n8n.poll(LEADS)).toEqual([
			expect.objectContaining({ id: lead.id, previous_status: 'created', status: 'completed' }),
		]);
		await setCampaignStatus(sim, campaignId, 'stop');
		expect(await n8n.poll(CAMPAIGNS)).toEqual([]); // seen, not emitted: not saved
		// the lead is set back to created (PUT /api/leads/{id}): seen, not emitted, not saved
		const reset = await serviceRequest(sim, 'PUT', `/api/leads/${lead.id}`, { status: 'created' });
		expect(reset.status).toBe(200);
		expect(await n8n.poll(LEADS)).toEqual([]);

		n8n.restart();
		// the service's times have a resolution of one second
		await new Promise((resolve) => setTimeout(resolve, 1_100));
		await setCampaignStatus(sim, campaignId, 'start');
		await control(sim, `campaigns/${campaignId}/advance`, { ticks: 2, leads: 1 });
		expect(lead.status).toBe('completed');
		expect(await n8n.poll(CAMPAIGNS)).toEqual([
			expect.objectContaining({
				id: campaignId,
				status: 'in-progress',
				change: 'started',
				after_restart: true,
			}),
		]);
		// the next lead's call ended too: an ordinary change
		const second = ours()[1].id;
		expect(await n8n.poll(LEADS)).toEqual([
			expect.objectContaining({ id: second, previous_status: 'processing', status: 'completed' }),
			expect.objectContaining({
				id: lead.id,
				previous_status: null,
				status: 'completed',
				after_restart: true,
			}),
		]);
		expect(await n8n.poll(CAMPAIGNS)).toEqual([]);
		expect(await n8n.poll(LEADS)).toEqual([]);
	});
});
