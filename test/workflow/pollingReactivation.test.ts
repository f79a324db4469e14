/**
 * The polling trigger across the ways n8n activates a workflow again, in a
 * real workflow (n8n-core's PollContext with its activation mode, the
 * workflow's static data as n8n saved it) against the simulator: a user's
 * activation (`activate`) starts afresh, so calls that ended while the
 * workflow was off start nothing (as with the webhook trigger); n8n's start
 * (`init`, a restart) and a published version (`update`) go on from the
 * saved position, so the calls that ended meanwhile are emitted once.
 */
import type { IDataObject, INodeExecutionData, WorkflowActivateMode } from 'n8n-workflow';

import { TestWorkflow } from './helpers/runWorkflow';
import {
	CALL_ENDED_TRIGGER,
	callEndedPollingWorkflow,
	control,
	simCredentials,
	simulatorForTests,
} from './helpers/workflows';

const ids = (output: INodeExecutionData[][] | null) =>
	(output?.[0] ?? []).map((item) => Number(item.json.id));

describe('Polling trigger activated again, in a workflow against the simulator', () => {
	const sim = simulatorForTests({}, { resetEach: true });

	/** An outbound call of assistant 2 that ends now: its id. */
	async function endCall(phone: string) {
		const ended = await control<{ call: IDataObject }>(sim, 'calls/complete', {
			assistant_id: 2,
			type: 'outbound',
			customer_phone: phone,
		});
		return Number(ended.call.id);
	}

	/** The workflow with `staticData` as n8n saved it, activated for `activation`. */
	const activated = (activation: WorkflowActivateMode, staticData?: IDataObject) =>
		new TestWorkflow(
			{ ...callEndedPollingWorkflow(), ...(staticData ? { staticData } : {}) },
			{ credentials: simCredentials(sim), activation },
		);

	/** Active, one call emitted (n8n saves the static data when a poll emits), then off: the saved copy. */
	async function emittedOnceThenOff() {
		const first = activated('activate');
		expect(await first.poll(CALL_ENDED_TRIGGER)).toBeNull();
		const call = await endCall('+4915100000001');
		expect(ids(await first.poll(CALL_ENDED_TRIGGER))).toEqual([call]);
		return JSON.parse(JSON.stringify(first.staticData)) as IDataObject;
	}

	it('deactivated, two calls end, activated again by a user: nothing old starts; the next call does', async () => {
		const saved = await emittedOnceThenOff();
		await endCall('+4915100000002');
		await endCall('+4915100000003');
		const again = activated('activate', saved);
		expect(await again.poll(CALL_ENDED_TRIGGER)).toBeNull();
		expect(await again.poll(CALL_ENDED_TRIGGER)).toBeNull();
		const next = await endCall('+4915100000004');
		expect(ids(await again.poll(CALL_ENDED_TRIGGER))).toEqual([next]);
	});

	it('a first poll of a user activation whose notes n8n did not keep notes again: nothing old on the poll after it', async () => {
		const saved = await emittedOnceThenOff();
		await endCall('+4915100000002');
		const again = activated('activate', saved);
		expect(await again.poll(CALL_ENDED_TRIGGER)).toBeNull();
		// the activation poll's notes are lost: the static data is the saved copy again
		const node = `node:${CALL_ENDED_TRIGGER}`;
		const staticData = again.staticData as IDataObject;
		staticData[node] = JSON.parse(JSON.stringify(saved[node]));
		await endCall('+4915100000003');
		expect(await again.poll(CALL_ENDED_TRIGGER)).toBeNull();
		const next = await endCall('+4915100000004');
		expect(ids(await again.poll(CALL_ENDED_TRIGGER))).toEqual([next]);
	});

	it.each(['init', 'update'] as const)(
		'n8n stopped or a version published (%s) while two calls end: both are emitted once',
		async (activation) => {
			const saved = await emittedOnceThenOff();
			const missed = [await endCall('+4915100000002'), await endCall('+4915100000003')];
			const again = activated(activation, saved);
			expect(ids(await again.poll(CALL_ENDED_TRIGGER))).toEqual(missed);
			expect(await again.poll(CALL_ENDED_TRIGGER)).toBeNull();
		},
	);
});
