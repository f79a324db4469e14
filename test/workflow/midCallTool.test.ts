/**
 * The Mid-Call Tool Request event in a real workflow (n8n-core) against the
 * simulator: activation creates the tool and adds it to the assistant next to
 * its other tools, simulated calls use the tool and get the workflow's answer,
 * deactivation takes it out and deletes it; the same with the test URL.
 */
import type { IDataObject } from 'n8n-workflow';

import { TYPES } from './helpers/runWorkflow';
import { listeningWorkflows, webhookTrigger } from './helpers/webhooks';
import { byId, control, simulatorForTests, triggerThen } from './helpers/workflows';

const TRIGGER = 'Free Slot Asked';
const ANSWER = 'Answer';

/** Trigger → a node that builds the answer from the parameters ("boom" makes it fail). */
function toolWorkflow(extra: IDataObject = {}) {
	const parameters: IDataObject = {
		event: 'midCallTool',
		assistantId: byId(1),
		toolName: 'check_free_slot',
		toolDescription:
			'Checks whether an appointment slot is free. Use it when the caller asks for a date.',
		toolParameters: {
			parameter: [
				{ name: 'date', type: 'string', description: 'The date, as YYYY-MM-DD' },
				{ name: 'people', type: 'number', description: 'How many people come' },
			],
		},
		toolTimeout: 5,
		...extra,
	};
	return triggerThen(
		webhookTrigger(TRIGGER, parameters, { webhookId: '7a1b2c3d-0a9b-4c3d-8e7f-aabbccddeeff' }),
		{
			name: ANSWER,
			type: TYPES.items,
			parameters: {
				items:
					'={{ $json.parameters.date === "boom" ? "not json" : JSON.stringify([{ free: true, answer: "The slot on " + $json.parameters.date + " for " + $json.parameters.people + " is free" }]) }}',
			},
		},
	);
}

describe('Mid-call tool served by a workflow, against the simulator', () => {
	const sim = simulatorForTests();
	const listeningWorkflow = listeningWorkflows(sim);
	afterEach(async () => {
		await control(sim, 'reset', {});
	});

	const assistant = () => sim.state.assistants.find((a: any) => a.id === 1);

	it('activation creates and adds the tool (other tools kept), 20 tool requests are answered by the workflow, deactivation takes it out and deletes it', async () => {
		expect(assistant().tool_ids).toEqual([1]);
		const toolsBefore = sim.state.tools.length;
		const test = await listeningWorkflow(toolWorkflow());
		expect(await test.hook(TRIGGER, 'checkExists')).toBe(false);
		expect(await test.hook(TRIGGER, 'create')).toBe(true);
		expect(sim.state.tools).toHaveLength(toolsBefore + 1);
		const tool = sim.state.tools[sim.state.tools.length - 1];
		expect(tool).toMatchObject({
			name: 'check_free_slot',
			endpoint: test.webhookUrl(TRIGGER),
			method: 'POST',
			timeout: 5,
			headers: [{ name: 'X-Tool-Secret', value: expect.stringMatching(/^[A-Za-z0-9]{32}$/) }],
			schema: [
				{ name: 'date', type: 'string', description: 'The date, as YYYY-MM-DD' },
				{ name: 'people', type: 'number', description: 'How many people come' },
			],
		});
		expect(assistant().tool_ids).toEqual([1, tool.id]);
		// a restart finds everything in place
		expect(await test.hook(TRIGGER, 'checkExists')).toBe(true);

		const answers = [];
		for (let i = 0; i < 20; i++) {
			const date = `2026-12-${String(i + 1).padStart(2, '0')}`;
			answers.push(
				await control<any>(sim, 'calls/use-tool', {
					assistant_id: 1,
					tool: 'check_free_slot',
					arguments: { date, people: i + 1 },
				}),
			);
		}
		answers.forEach((used, i) => {
			expect(used).toMatchObject({
				status: 200,
				timed_out: false,
				response: {
					free: true,
					answer: `The slot on 2026-12-${String(i + 1).padStart(2, '0')} for ${i + 1} is free`,
				},
			});
		});
		const deliveries = await test.waitForDeliveries(20);
		expect(
			deliveries.every((d) => d.result?.executionOrder.join() === `${TRIGGER},${ANSWER}`),
		).toBe(true);
		expect(deliveries[3].result!.outputOf(TRIGGER)[0].json).toMatchObject({
			tool: 'check_free_slot',
			tool_id: tool.id,
			parameters: { date: '2026-12-04', people: 4 },
		});

		// without the secret: 401, nothing runs
		const forged = await fetch(test.webhookUrl(TRIGGER), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{"date":"2026-12-01"}',
		});
		expect([forged.status, await forged.json()]).toEqual([401, { message: 'Unauthorized' }]);
		expect((await test.waitForDeliveries(21))[20].result).toBeUndefined();

		// a failing workflow answers JSON, not an HTML page
		const failed = await control<any>(sim, 'calls/use-tool', {
			assistant_id: 1,
			tool: tool.id,
			arguments: { date: 'boom' },
		});
		expect([failed.status, failed.response]).toEqual([500, { message: 'Error in workflow' }]);

		expect(await test.hook(TRIGGER, 'delete')).toBe(true);
		expect(assistant().tool_ids).toEqual([1]);
		expect(sim.state.tools.some((t: any) => t.id === tool.id)).toBe(false);
		expect(sim.state.tools).toHaveLength(toolsBefore);
	});

	it('"Listen for test event" registers a tool with the test URL, which answers, and cleans up after itself', async () => {
		const test = await listeningWorkflow(toolWorkflow());
		expect(await test.hook(TRIGGER, 'create', { test: true })).toBe(true);
		const tool = sim.state.tools[sim.state.tools.length - 1];
		expect(tool.endpoint).toBe(test.webhookUrl(TRIGGER, true));
		expect(assistant().tool_ids).toEqual([1, tool.id]);
		const used = await control<any>(sim, 'calls/use-tool', {
			assistant_id: 1,
			tool: 'check_free_slot',
			arguments: { date: '2026-12-24', people: 2 },
		});
		expect(used).toMatchObject({
			status: 200,
			response: { free: true, answer: 'The slot on 2026-12-24 for 2 is free' },
		});
		expect(await test.hook(TRIGGER, 'delete', { test: true })).toBe(true);
		expect(assistant().tool_ids).toEqual([1]);
		expect(sim.state.tools.some((t: any) => t.id === tool.id)).toBe(false);
	});
});
