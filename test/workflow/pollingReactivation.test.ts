/**
 * The polling trigger across the ways n8n activates a workflow again, in a
 * real workflow (n8n-core's PollContext with its activation mode, the
 * workflow's static data as n8n saved it) against the simulator: a user's
 * activation (`activate`) starts afresh, so calls that ended while the
 * workflow was off start nothing (as with the webhook trigger); n8n's start
 * (`init`, a restart) and a published version (`update`) go on from the
 * saved position, so the calls that ended meanwhile are emitted once.
 */
import type { IDataObject, WorkflowActivateMode } from 'n8n-workflow';

import { callEndedPolling, emittedIds } from './helpers/polling';
import { CALL_ENDED_TRIGGER, simulatorForTests } from './helpers/workflows';

describe('Polling trigger activated again, in a workflow against the simulator', () => {
	const sim = simulatorForTests({}, { resetEach: true });
	const calls = callEndedPolling(sim);
	const { poll } = calls;

	/** An outbound call of assistant 2 that ends now: its id. */
	const endCall = (phone: string) => calls.endCall({ customer_phone: phone });

	/** The workflow with `staticData` as n8n saved it, activated for `activation`. */
	const activated = (activation: WorkflowActivateMode, staticData?: IDataObject) =>
		calls.workflow({ activation, staticData });

	/** Active, one call emitted (n8n saves the static data when a poll emits), then off: the saved copy. */
	async function emittedOnceThenOff() {
		const first = await calls.activate();
		const call = await endCall('+4915100000001');
		expect(emittedIds(await poll(first))).toEqual([call]);
		return JSON.parse(JSON.stringify(first.staticData)) as IDataObject;
	}

	it('deactivated, two calls end, activated again by a user: nothing old starts; the next call does', async () => {
		const saved = await emittedOnceThenOff();
		await endCall('+4915100000002');
		await endCall('+4915100000003');
		const again = activated('activate', saved);
		expect(await poll(again)).toBeNull();
		expect(await poll(again)).toBeNull();
		const next = await endCall('+4915100000004');
		expect(emittedIds(await poll(again))).toEqual([next]);
	});

	it('a first poll of a user activation whose notes n8n did not keep notes again: nothing old on the poll after it', async () => {
		const saved = await emittedOnceThenOff();
		await endCall('+4915100000002');
		const again = activated('activate', saved);
		expect(await poll(again)).toBeNull();
		// the activation poll's notes are lost: the static data is the saved copy again
		const node = `node:${CALL_ENDED_TRIGGER}`;
		const staticData = again.staticData as IDataObject;
		staticData[node] = JSON.parse(JSON.stringify(saved[node]));
		await endCall('+4915100000003');
		expect(await poll(again)).toBeNull();
		const next = await endCall('+4915100000004');
		expect(emittedIds(await poll(again))).toEqual([next]);
	});

	it.each(['init', 'update'] as const)(
		'n8n stopped or a version published (%s) while two calls end: both are emitted once',
		async (activation) => {
			const saved = await emittedOnceThenOff();
			const missed = [await endCall('+4915100000002'), await endCall('+4915100000003')];
			const again = activated(activation, saved);
			expect(emittedIds(await poll(again))).toEqual(missed);
			expect(await poll(again)).toBeNull();
		},
	);
});
