/**
 * Lead Status Changed and Campaign Status Changed in a real workflow (n8n-core's
 * PollContext, the workflow's static data) against the simulator, whose
 * campaign calls its leads step by step (`/__sim/campaigns/:id/advance`):
 * each lead's final status is emitted once, with its previous status, and the
 * campaign's start and completion once each; one lead request per poll.
 */
import type { IDataObject } from 'n8n-workflow';

import { emittedJson } from './helpers/polling';
import { TestWorkflow } from './helpers/runWorkflow';
import type { Simulator } from './helpers/workflows';
import {
	CAMPAIGN_EVENTS as CAMPAIGNS,
	LEAD_EVENTS as LEADS,
	leadAndCampaignWorkflow,
	control,
	serviceApi,
	setCampaignStatus,
	simCredentials,
	simulatorForTests,
} from './helpers/workflows';

/** The campaign's leads, and every campaign's status changes. */
const workflow = (campaignId: number) => leadAndCampaignWorkflow(campaignId, { campaignId: '' });

/** A draft campaign of assistant 2 with `count` leads; leads in `failing` end reached-max-retries. */
async function campaignWithLeads(sim: Simulator, count: number, failing: number[] = []) {
	const created = await serviceApi(sim, 'POST', '/api/user/campaigns', {
		name: 'Autumn Calls',
		assistant_id: 2,
		max_calls_in_parallel: 4,
	});
	const campaignId = Number((created.data as IDataObject).id);
	const leads: number[] = [];
	for (let i = 1; i <= count; i++) {
		const variables = failing.includes(i)
			? { simulated_outcome: 'reached-max-retries' }
			: { customer_name: `Lead ${i}` };
		const lead = await serviceApi(sim, 'POST', '/api/user/lead', {
			phone_number: `+1415555${String(1000 + i)}`,
			campaign_id: campaignId,
			variables,
		});
		leads.push(Number((lead.data as IDataObject).id));
	}
	return { campaignId, leads };
}

describe('Lead and campaign events in a workflow against the simulator', () => {
	const sim = simulatorForTests({}, { resetEach: true });

	it('a campaign of 20 leads: each final status once (20 items across polls), started and completed once', async () => {
		const { campaignId, leads } = await campaignWithLeads(sim, 20, [7, 13]);
		const test = new TestWorkflow(workflow(campaignId), { credentials: simCredentials(sim) });
		expect(await test.poll(LEADS)).toBeNull();
		expect(await test.poll(CAMPAIGNS)).toBeNull();

		await setCampaignStatus(sim, campaignId, 'start');
		expect(emittedJson(await test.poll(CAMPAIGNS))).toEqual([
			expect.objectContaining({
				id: campaignId,
				status: 'in-progress',
				previous_status: 'draft',
				change: 'started',
			}),
		]);

		const emitted: IDataObject[] = [];
		const campaignChanges: IDataObject[] = [];
		let polls = 0;
		for (; polls < 20; polls++) {
			const step = await control<{ campaign: IDataObject; remaining: number }>(
				sim,
				`campaigns/${campaignId}/advance`,
				{},
			);
			const before = sim.log.length;
			emitted.push(...emittedJson(await test.poll(LEADS)));
			// one request per poll: the campaign's 20 leads are one page
			expect(
				sim.log.slice(before).map((entry) => [entry.method, entry.path, entry.query, entry.status]),
			).toEqual([
				[
					'GET',
					'/api/user/leads',
					{ campaign_id: String(campaignId), per_page: '100', page: '1' },
					200,
				],
			]);
			campaignChanges.push(...emittedJson(await test.poll(CAMPAIGNS)));
			if (step.campaign.status === 'completed') break;
		}
		expect(polls).toBeGreaterThan(1);
		expect(emitted.map((lead) => lead.id).sort((a, b) => Number(a) - Number(b))).toEqual(leads);
		for (const lead of emitted) {
			const failed = [leads[6], leads[12]].includes(Number(lead.id));
			expect(lead).toMatchObject({
				campaign_id: campaignId,
				previous_status: 'processing',
				status: failed ? 'reached-max-retries' : 'completed',
			});
		}
		expect(campaignChanges).toEqual([
			expect.objectContaining({
				id: campaignId,
				previous_status: 'in-progress',
				status: 'completed',
				change: 'completed',
			}),
		]);

		// nothing twice
		expect(await test.poll(LEADS)).toBeNull();
		expect(await test.poll(CAMPAIGNS)).toBeNull();
	});

	it('the simulator moves a lead one status per step, and only while the campaign runs', async () => {
		const { campaignId, leads } = await campaignWithLeads(sim, 5);
		/** The status of a step asked of the simulator's campaign (its control API, unchecked). */
		const stepStatus = async () =>
			(
				await fetch(`${sim.url}/__sim/campaigns/${campaignId}/advance`, {
					method: 'POST',
					body: '{}',
				})
			).status;
		expect(await stepStatus()).toBe(409);
		await setCampaignStatus(sim, campaignId, 'start');
		const first = await control<IDataObject>(sim, `campaigns/${campaignId}/advance`, { leads: 2 });
		expect(first).toEqual({
			campaign: { id: campaignId, status: 'in-progress' },
			moved: [
				{ id: leads[0], from: 'created', to: 'processing' },
				{ id: leads[1], from: 'created', to: 'processing' },
			],
			remaining: 5,
		});
		const second = await control<IDataObject>(sim, `campaigns/${campaignId}/advance`, { leads: 2 });
		expect(second.moved).toEqual([
			{ id: leads[0], from: 'processing', to: 'completed' },
			{ id: leads[1], from: 'processing', to: 'completed' },
			{ id: leads[2], from: 'created', to: 'processing' },
			{ id: leads[3], from: 'created', to: 'processing' },
		]);
		await setCampaignStatus(sim, campaignId, 'stop');
		expect(await stepStatus()).toBe(409);
		await setCampaignStatus(sim, campaignId, 'start');
		const last = await control<IDataObject>(sim, `campaigns/${campaignId}/advance`, { ticks: 5 });
		expect(last.campaign).toEqual({ id: campaignId, status: 'completed' });
		expect(last.remaining).toBe(0);
		const listed = await serviceApi(sim, 'GET', `/api/user/leads?campaign_id=${campaignId}`);
		expect((listed.data as IDataObject[]).map((lead) => lead.status)).toEqual(
			Array(5).fill('completed'),
		);
	});
});
