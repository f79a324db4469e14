/**
 * A delivered call whose answer is the workflow's ("When Last Node Finishes", "Using 'Respond to
 * Webhook' Node"): the workflow may answer `{}` or nothing, which the call list records like no
 * answer. The node's execute() (the first step of the execution the delivery started) remembers
 * the call with the catch-up's state, which n8n saves when the execution ends; after a restart the
 * heartbeat starts it not again. "Immediately", Verify Secret off, manual runs and a process
 * where the heartbeat does not run (a queue-mode worker, whose save would take back the main's
 * writes) write nothing; a write of this process after the execution began goes into its copy.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData, ITriggerFunctions } from 'n8n-workflow';

import { beat } from '../../../nodes/VoiceChatAssistantTrigger/calls/heartbeat';
import { noteHeartbeat } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpState';
import { TEST_BASE_URL } from '../../helpers/context';
import { createHookContext } from '../../helpers/hookContext';
import { registeredTrigger } from '../../helpers/registeredTrigger';
import { CALLS, DOWN_AT, MINUTE, NOW, URL_PARAM, listCall, listPages } from './catchUpFixtures';
import { execute, heartbeatClockPerTest, restartProcess, watermarked } from './catchUpHarness';

heartbeatClockPerTest(() => ({ now: () => NOW, sleep: async () => {}, random: () => 0.5 }));

const registered = registeredTrigger({ secrets: { 12: URL_PARAM, 34: URL_PARAM } });
const LAST_NODE = { responseMode: 'lastNode' };

/** The heartbeat runs in this process (n8n's regular mode: the main runs triggers and executions). */
function heartbeatRunsHere() {
	const hook = createHookContext({ parameters: registered.parameters(), staticData: {} });
	noteHeartbeat(hook.context as unknown as ITriggerFunctions, true);
}

/** The registration; assistant 34 watermarked at DOWN_AT, the service's zone known (UTC+1). */
const staticData = () => watermarked(registered);

/** Two calls delivered during the gap (the workflow answered them) and one missed. */
const answeredEmpty = listCall(9001, DOWN_AT + 5 * MINUTE, { webhook_response: {} });
const answeredNothing = listCall(9002, DOWN_AT + 9 * MINUTE, { webhook_response: null });
const missed = listCall(9003, DOWN_AT + 20 * MINUTE);

/** The delivered call's item, as webhook() gives it to the run. */
const delivered = (id: number, extra: IDataObject = {}): INodeExecutionData => ({
	json: { event: 'inboundCallCompleted', assistant_id: 34, id, status: 'completed', ...extra },
});

/** execute() in the run a delivery started (`mode` webhook), over the saved static data. */
async function run(
	data: IDataObject,
	items: INodeExecutionData[],
	parameters: IDataObject = LAST_NODE,
	mode = 'webhook',
) {
	const hook = createHookContext({
		parameters: registered.parameters(parameters),
		staticData: data,
		mode: mode as 'trigger',
	});
	return await execute(hook, mode, items);
}

/** A heartbeat round after a restart (nothing in memory), over the saved static data: what it starts. */
async function roundAfterRestart(data: IDataObject, parameters: IDataObject = LAST_NODE) {
	restartProcess();
	return await round(data, parameters);
}

/** A heartbeat round of this process over `data`: the calls it starts. */
async function round(data: IDataObject, parameters: IDataObject = LAST_NODE) {
	nock(TEST_BASE_URL)
		.get(CALLS)
		.query(true)
		.reply(200, listPages([missed, answeredNothing, answeredEmpty])[0]);
	const hook = createHookContext({
		parameters: registered.parameters(parameters),
		staticData: data,
	});
	const started: unknown[] = [];
	const context = {
		...hook.context,
		emit: (output: INodeExecutionData[][]) => started.push(...output[0].map((i) => i.json.id)),
	} as unknown as ITriggerFunctions;
	await beat(context);
	return started;
}

const saved = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;
const recentIds = (data: IDataObject) =>
	(((data.catchUp as IDataObject).assistants as IDataObject)['34'] as IDataObject).recent as Array<
		[number, number]
	>;

describe('a delivered call answered by the workflow ({} or nothing) never starts again', () => {
	it('where the heartbeat does not run (a queue-mode worker): nothing is written', async () => {
		const data = staticData();
		const before = saved(data);
		await run(data, [delivered(9001)]);
		expect(saved(data)).toEqual(before);
	});

	it('"When Last Node Finishes": execute() remembers each delivered call; after a restart the heartbeat starts only the missed one', async () => {
		heartbeatRunsHere();
		const data = staticData();
		const items = [delivered(9001)];
		// the items pass through unchanged
		expect(await run(data, items)).toEqual([items]);
		await run(data, [delivered(9002)]);
		expect(recentIds(data)).toEqual([
			[9001, NOW],
			[9002, NOW],
		]);
		expect(await roundAfterRestart(saved(data))).toEqual([9003]);
	});

	it('without that memory (as before), the same round starts the two answered calls again', async () => {
		expect(await roundAfterRestart(staticData())).toEqual([9001, 9002, 9003]);
	});

	it('"Using \'Respond to Webhook\' Node" the same; a call remembered twice is kept once', async () => {
		heartbeatRunsHere();
		const data = staticData();
		const parameters = { responseMode: 'responseNode' };
		await run(data, [delivered(9001)], parameters);
		await run(data, [delivered(9001)], parameters);
		expect(recentIds(data).map(([id]) => id)).toEqual([9001]);
	});

	it('a round of the heartbeat after the execution began goes into its copy: the save at its end keeps the round', async () => {
		heartbeatRunsHere();
		const execution = staticData();
		await run(execution, [delivered(9001)]);
		// the heartbeat's own copy of the static data (the trigger's Workflow object)
		const heartbeat = staticData();
		expect(await round(heartbeat)).toEqual([9002, 9003]);
		expect(recentIds(execution).map(([id]) => id)).toEqual([9001, 9002, 9003]);
		expect(saved(execution).catchUp).toEqual(saved(heartbeat).catchUp);
		// the execution's save is the last: a restart starts none of the three again
		expect(await roundAfterRestart(saved(execution))).toEqual([]);
	});

	it.each([
		['"Immediately"', { responseMode: 'onReceived' }],
		['"When Last Node Finishes"', LAST_NODE],
		['Verify Secret off', { ...LAST_NODE, verifySecret: false }],
	])(
		'%s, a Code node beside the trigger writes static data: a heartbeat round during the execution goes into its copy, so its save at the end takes nothing back',
		async (_name, parameters) => {
			heartbeatRunsHere();
			// the execution's copy of the static data, loaded when the delivery came
			const execution = staticData();
			await run(execution, [delivered(9001)], parameters);
			// the heartbeat's round meanwhile (the trigger's own copy) starts the missed call
			const heartbeat = staticData();
			expect(await round(heartbeat, parameters)).toContain(9003);
			// a Code node writes the workflow's static data: n8n saves the execution's copy whole
			execution.seen = ['order-1'];
			expect(saved(execution).catchUp).toEqual(saved(heartbeat).catchUp);
			// a restart after that save starts the missed call not again
			expect(await roundAfterRestart(saved(execution), parameters)).not.toContain(9003);
		},
	);

	it('caught-up items (the heartbeat remembered them already), other events and unregistered assistants add nothing', async () => {
		heartbeatRunsHere();
		const data = staticData();
		const before = saved(data);
		await run(data, [
			delivered(9003, { caught_up: true }),
			delivered(9004, { event: 'callCompleted' }),
			delivered(9005, { assistant_id: 99 }),
		]);
		expect(saved(data)).toEqual(before);
	});

	it.each([
		[
			'"Immediately" (its own answer, {"received": true}, proves the delivery)',
			{ responseMode: 'onReceived' },
			'webhook',
		],
		[
			'Verify Secret off (an unverified post must not hide the real call)',
			{ ...LAST_NODE, verifySecret: false },
			'webhook',
		],
		['a manual run', LAST_NODE, 'manual'],
	])('%s: nothing is written', async (_case, parameters, mode) => {
		heartbeatRunsHere();
		const data = staticData();
		const before = saved(data);
		const items = [delivered(9001)];
		expect(await run(data, items, parameters, mode)).toEqual([items]);
		expect(saved(data)).toEqual(before);
	});
});
