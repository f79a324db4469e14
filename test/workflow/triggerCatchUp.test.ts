/**
 * Every call once through n8n's own life, against a simulator that never
 * posts a call webhook again: a restart in a busy stream, calls that ended
 * before an activation, a deactivation and activation, deliveries at once.
 * n8n's saving is modelled (`savesLikeN8n`): each request loads the saved
 * static data and saves its copy whole when it changed it, the later save
 * winning. Time moves by shifting Date.now (the simulator's and the node's
 * clock); a restart forgets the node's in-process memory.
 */
import type { IDataObject } from 'n8n-workflow';

import { CALL_TRIGGER as TRIGGER, callCompletedTrigger } from './helpers/callTrigger';
import type { TestWorkflow } from './helpers/runWorkflow';
import { shiftedClockPerTest, simulatorForTests } from './helpers/workflows';

const MINUTE = 60_000;

describe('Trigger: every call once through restarts, activations and deliveries at once', () => {
	const sim = simulatorForTests({ redeliveryDelaysMs: [] }, { resetEach: true });
	const { advance } = shiftedClockPerTest();
	const { activated, callEnds, restart } = callCompletedTrigger(
		sim,
		'7a1d2c3b-0a9b-4c3d-8e7f-aabbccddeeff',
	);

	afterEach(() => {
		sim.setConfig({ webhookResponseShape: 'body' });
	});

	/** A call ends and its delivery is answered (and its run finished). */
	async function deliveredCall(workflow: TestWorkflow): Promise<number> {
		const before = workflow.deliveries.length;
		const id = await callEnds();
		await workflow.waitForDeliveries(before + 1);
		return id;
	}

	/** Every call id the workflow started, in order, with how often. */
	function started(workflow: TestWorkflow): number[] {
		return workflow.deliveries.flatMap((d) =>
			(d.result?.outputOf(TRIGGER) ?? []).map((item) => Number(item.json.id)),
		);
	}

	it.each(['body', 'wrapped'] as const)(
		'a short restart in a busy stream: 30 calls end while n8n is down, then a call a minute: all once (the service records webhook_response as %s)',
		async (shape) => {
			// SPEC shows no shape of webhook_response: the receiver's answer, or {status, body} and {error}
			sim.setConfig({ webhookResponseShape: shape });
			const test = await activated();
			const savesAtActivation = test.saves;
			const ids: number[] = [];
			for (let i = 0; i < 3; i++) {
				advance(MINUTE);
				ids.push(await deliveredCall(test));
			}
			// n8n is down for half a minute while 30 calls end (their deliveries refused, never posted again)
			test.down = true;
			for (let i = 0; i < 30; i++) {
				advance(1_000);
				ids.push(await callEnds());
			}
			restart();
			test.down = false;
			// n8n's start: the registration is still in place
			expect(await test.hook(TRIGGER, 'checkExists', { activation: 'init' })).toBe(true);
			// the next call 20 s later, then one a minute
			advance(20_000);
			ids.push(await deliveredCall(test));
			const back = Date.now();
			let allBy: number | undefined;
			for (let i = 0; i < 5; i++) {
				advance(MINUTE);
				ids.push(await deliveredCall(test));
				if (allBy === undefined && ids.slice(0, 33).every((id) => started(test).includes(id))) {
					allBy = Date.now() - back;
				}
			}
			const counted = started(test);
			expect([...counted].sort((a, b) => a - b)).toEqual(ids);
			// every missed call started within 3 minutes after n8n was back
			expect(allBy).toBeLessThanOrEqual(3 * MINUTE);
			// few writes: of the 9 deliveries in these 9 minutes only the catch-ups saved (the first two after the
			// start a minute apart, then one per 2 minutes at most)
			expect(test.saves - savesAtActivation).toBeLessThanOrEqual(6);
		},
	);

	it('calls that ended before an activation, or while the workflow was inactive, never start it', async () => {
		advance(MINUTE);
		const beforeActivation = await callEnds();
		advance(MINUTE);
		const test = await activated();
		advance(MINUTE);
		const first = await deliveredCall(test);
		// deactivated; two calls end; activated again 4 minutes later
		expect(await test.hook(TRIGGER, 'delete')).toBe(true);
		advance(MINUTE);
		const inactive = [await callEnds(), await callEnds()];
		advance(4 * MINUTE);
		expect(await test.hook(TRIGGER, 'checkExists', { activation: 'activate' })).toBe(false);
		expect(await test.hook(TRIGGER, 'create', { activation: 'activate' })).toBe(true);
		const later: number[] = [];
		for (let i = 0; i < 5; i++) {
			advance(MINUTE);
			later.push(await deliveredCall(test));
		}
		const counted = started(test);
		expect(counted).toEqual([first, ...later]);
		expect(counted).not.toContain(beforeActivation);
		for (const id of inactive) expect(counted).not.toContain(id);
	});

	it('a publish (removal, then registration at update) while calls end: those calls start, once', async () => {
		const test = await activated();
		advance(MINUTE);
		const ids = [await deliveredCall(test)];
		expect(await test.hook(TRIGGER, 'delete')).toBe(true);
		advance(20_000);
		ids.push(await callEnds());
		expect(await test.hook(TRIGGER, 'checkExists', { activation: 'update' })).toBe(false);
		expect(await test.hook(TRIGGER, 'create', { activation: 'update' })).toBe(true);
		for (let i = 0; i < 5; i++) {
			advance(MINUTE);
			ids.push(await deliveredCall(test));
		}
		expect([...started(test)].sort((a, b) => a - b)).toEqual(ids);
	});

	for (const responseMode of ['lastNode', 'responseNode']) {
		it(`Response Mode ${responseMode}: the calls caught up after an outage start once, also across a restart after it; the delivery that caught up is answered at once`, async () => {
			const test = await activated({ responseMode });
			advance(MINUTE);
			const ids = [await deliveredCall(test)];
			test.down = true;
			for (let i = 0; i < 4; i++) {
				advance(5_000);
				ids.push(await callEnds());
			}
			test.down = false;
			restart();
			expect(await test.hook(TRIGGER, 'checkExists', { activation: 'init' })).toBe(true);
			const answers = () => test.deliveries.map((d) => d.response as IDataObject);
			for (let i = 0; i < 3; i++) {
				advance(MINUTE);
				ids.push(await deliveredCall(test));
			}
			// every call so far once; the missed four came with one delivery, which said so at once
			expect([...started(test)].sort((a, b) => a - b)).toEqual(ids);
			const atOnce = () => answers().filter((a) => a?.caught_up !== undefined);
			expect(atOnce()).toEqual([{ received: true, caught_up: 4 }]);
			// n8n restarts: what that delivery noted was saved, so nothing it started starts again
			restart();
			expect(await test.hook(TRIGGER, 'checkExists', { activation: 'init' })).toBe(true);
			for (let i = 0; i < 3; i++) {
				advance(MINUTE);
				ids.push(await deliveredCall(test));
			}
			expect([...started(test)].sort((a, b) => a - b)).toEqual(ids);
			// the others are answered by the workflow, as the mode says (here: the call's item)
			const byWorkflow = answers().filter((a) => a?.caught_up === undefined);
			expect(byWorkflow).toHaveLength(6);
			for (const a of byWorkflow) expect(ids).toContain(Number(a.id));
		});
	}

	it('deliveries at once after an outage, then a restart: each call once', async () => {
		const test = await activated();
		advance(MINUTE);
		const ids = [await deliveredCall(test)];
		test.down = true;
		for (let i = 0; i < 5; i++) {
			advance(5_000);
			ids.push(await callEnds());
		}
		test.down = false;
		advance(4 * MINUTE);
		// three calls end together: their deliveries arrive at once
		const before = test.deliveries.length;
		ids.push(...(await Promise.all([callEnds(), callEnds(), callEnds()])));
		await test.waitForDeliveries(before + 3);
		restart();
		expect(await test.hook(TRIGGER, 'checkExists', { activation: 'init' })).toBe(true);
		for (let i = 0; i < 5; i++) {
			advance(MINUTE);
			ids.push(await deliveredCall(test));
		}
		expect([...started(test)].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
	});
});
