/**
 * Lead and campaign events in a real `n8n start` (real scheduled polls, every 10 s
 * through six once-a-minute crons: what is tested is n8n saving the trigger's state
 * between its scheduled polls): a campaign
 * of 20 leads that the simulator calls in steps, 8 leads ending before one poll and
 * the other 12 before the next. The polling trigger emits each lead's final
 * status once (20 items across polls) and the campaign's start and completion
 * once each.
 */
const {
	pollEvery,
	SIM_KEY,
	UNTHROTTLED,
	startSimulatorAndHome,
	waiter,
	sleep,
	triggerOnlyWorkflow,
	POLLING_TRIGGER_TYPE,
	rl,
} = require('../harness/n8n');
/** The harness's waitFor with this file's default: n8n's polls take real minutes. */
const waitFor = waiter(300_000);

const PHONE = (i: number) => `+49151777000${String(i).padStart(2, '0')}`;

async function call(sim: any, method: string, path: string, body?: unknown) {
	const res = await fetch(`${sim.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${SIM_KEY}`,
			'content-type': 'application/json',
			accept: 'application/json',
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
	return (await res.json()) as any;
}

function pollingWorkflow(id: string, parameters: Record<string, unknown>) {
	return triggerOnlyWorkflow(id, {
		id: 'poll',
		name: 'Trigger',
		type: POLLING_TRIGGER_TYPE,
		parameters: { pollTimes: pollEvery(10), ...parameters },
	});
}

describe('real n8n server: lead and campaign events', () => {
	let sim: any;
	let home: any;
	let server: any;
	let campaignId: number;
	const executions = (workflowId: string): Array<{ id: number; status: string }> =>
		home.executions(workflowId);
	const dataOf = (executionId: number): string => home.executionData(executionId);
	const polls = (path: string) =>
		sim.log.filter((e: any) => e.method === 'GET' && e.path === path).length;

	beforeAll(async () => {
		({ sim, home } = await startSimulatorAndHome({ credentialData: UNTHROTTLED }));
		const created = await call(sim, 'POST', '/api/user/campaigns', {
			name: 'E2E Autumn Calls',
			assistant_id: 2,
			max_calls_in_parallel: 4,
		});
		campaignId = created.data.id;
		for (let i = 1; i <= 20; i++) {
			const variables =
				i % 7 === 0 ? { simulated_outcome: 'reached-max-retries' } : { customer_name: `Lead ${i}` };
			await call(sim, 'POST', '/api/user/lead', {
				phone_number: PHONE(i),
				campaign_id: campaignId,
				variables,
			});
		}
		await home.importWorkflows([
			pollingWorkflow('e2eLeadStatusWf1', {
				event: 'leadStatusChanged',
				campaignId: rl(campaignId),
			}),
			pollingWorkflow('e2eCampaignWf001', { event: 'campaignStatusChanged', campaignId: '' }),
		]);
		await home.activate('e2eLeadStatusWf1', 'e2eCampaignWf001');
		server = await home.start();
		// the first polls note where things stand (n8n 2.x keeps what a poll notes only from its
		// scheduled polls on, not from the one at activation): two polls of each workflow
		await waitFor(
			'the first polls',
			() => polls('/api/user/leads') >= 2 && polls('/api/user/campaigns') >= 2,
		);
	}, 400_000);

	afterAll(async () => {
		await server?.stop();
		await sim?.close();
		await home?.cleanup();
	});

	it('a campaign of 20 leads: each final status once (20 items across polls), the completion once', async () => {
		await call(sim, 'POST', '/api/user/campaigns/update-status', {
			campaign_id: campaignId,
			action: 'start',
		});
		// the simulator calls 4 leads at a time, a step when the test says: 3 steps now (8 leads end),
		// the rest after the next poll, so the leads end across polls with no poll waited for in vain
		const advance = async (ticks: number) => {
			const res = await fetch(`${sim.url}/__sim/campaigns/${campaignId}/advance`, {
				method: 'POST',
				body: JSON.stringify({ ticks }),
			});
			expect(res.status).toBe(200);
		};
		await advance(3);

		const phonesOf = (executionId: number) => [
			...new Set(dataOf(executionId).match(/\+49151777000\d\d/g) ?? []),
		];
		const leadItems = () => executions('e2eLeadStatusWf1').flatMap((e) => phonesOf(e.id));
		// the first poll of each workflow after the start: 8 leads, and the campaign started
		await waitFor('the first leads emitted', () => leadItems().length >= 8, 180_000);
		await waitFor(
			'the campaign started',
			() => executions('e2eCampaignWf001').some((e) => dataOf(e.id).includes('"started"')),
			180_000,
		);
		expect(leadItems()).toHaveLength(8);
		await advance(10);
		expect(sim.state.campaigns.find((c: any) => c.id === campaignId).status).toBe('completed');
		await waitFor('20 leads emitted', () => leadItems().length >= 20, 180_000).catch(
			(error: Error) => {
				const statuses = sim.state.leads
					.filter((l: any) => l.campaign_id === campaignId)
					.map((l: any) => l.status);
				throw new Error(
					`${error.message}: ${leadItems().length} emitted in ${executions('e2eLeadStatusWf1').length} executions; leads ${statuses.join(',')}`,
				);
			},
		);
		await waitFor(
			'the campaign completed',
			() => executions('e2eCampaignWf001').some((e) => dataOf(e.id).includes('"completed"')),
			180_000,
		);
		// one more poll of each: nothing again
		const before = [polls('/api/user/leads'), polls('/api/user/campaigns')];
		await waitFor(
			'one more poll',
			() => polls('/api/user/leads') > before[0] && polls('/api/user/campaigns') > before[1],
			180_000,
		);
		await sleep(3000);

		const leadExecutions = executions('e2eLeadStatusWf1');
		expect(leadExecutions.every((e) => e.status === 'success')).toBe(true);
		expect(leadExecutions.length).toBeGreaterThan(1); // across polls
		expect(leadItems().sort()).toEqual(Array.from({ length: 20 }, (_, i) => PHONE(i + 1)));
		for (const e of leadExecutions) expect(dataOf(e.id)).toContain('previous_status');

		const campaignExecutions = executions('e2eCampaignWf001');
		expect(campaignExecutions).toHaveLength(2);
		const [started, completed] = campaignExecutions.map((e) => dataOf(e.id));
		expect(started).toContain('"started"');
		expect(started).not.toContain('"completed"');
		expect(completed).toContain('"completed"');
		expect(completed).not.toContain('"started"');
		// a lead list request per poll: the 20 leads are one page; the first poll (the whole first
		// round) reads the leads in a call first, once
		const page = { campaign_id: String(campaignId), per_page: '100', page: '1' };
		const leadRequests = sim.log.filter((e: any) => e.path === '/api/user/leads');
		expect(leadRequests[0].query).toEqual({ ...page, status: 'processing' });
		for (const entry of leadRequests.slice(1)) expect(entry.query).toEqual(page);
	}, 900_000);
});

export {};
