/**
 * The polling trigger reads its credential for each poll. n8n keeps one poll
 * context per activation (the workflow layer does the same): a key rotated in
 * the credential while the workflow stays active is used from the next poll
 * on, against the simulator, whose old key is revoked at the same moment.
 */
import type { IDataObject } from 'n8n-workflow';

import { TestWorkflow } from './helpers/runWorkflow';
import {
	CALL_ENDED_TRIGGER,
	callEndedPollingWorkflow,
	control,
	simCredentials,
	simulatorForTests,
} from './helpers/workflows';

const TRIGGER = CALL_ENDED_TRIGGER;
const ROTATED_KEY = 'rotated-sim-key-AFTER-ACTIVATION-42';

describe('Polling trigger: a key rotated while the workflow is active', () => {
	const sim = simulatorForTests({}, { resetEach: true });
	afterEach(() => sim.setConfig({ apiKey: simCredentials(sim).apiKey }));

	it('is used from the next poll on, without reactivating', async () => {
		const credentials: IDataObject = simCredentials(sim);
		const test = new TestWorkflow(callEndedPollingWorkflow(), {
			credentials: credentials as never,
		});
		expect(await test.poll(TRIGGER)).toBeNull();

		// the account's key is rotated: the old one stops working, the credential gets the new one
		sim.setConfig({ apiKey: ROTATED_KEY });
		credentials.apiKey = ROTATED_KEY;
		const seeded = await control<IDataObject>(sim, 'calls/seed', {
			count: 3,
			assistant_id: 2,
			type: 'outbound',
			status: 'completed',
			days: 0,
		});
		sim.clearLog();

		const output = await test.poll(TRIGGER);
		expect((output?.[0] ?? []).map((item) => Number(item.json.id))).toEqual([
			Number(seeded.first_id),
			Number(seeded.first_id) + 1,
			Number(seeded.last_id),
		]);
		const statuses = sim.log
			.filter((entry: { path: string }) => entry.path === '/api/user/calls')
			.map((entry: { status: number }) => entry.status);
		expect(statuses.length).toBeGreaterThan(0);
		expect(statuses.every((status: number) => status === 200)).toBe(true);
	});
});
