/**
 * The polling trigger reads its credential for each poll. n8n keeps one poll
 * context per activation (the workflow layer does the same): a key rotated in
 * the credential while the workflow stays active is used from the next poll
 * on, against the simulator, whose old key is revoked at the same moment.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { callEndedPolling, emittedIds } from './helpers/polling';
import { simCredentials, simulatorForTests } from './helpers/workflows';

const ROTATED_KEY = 'rotated-sim-key-AFTER-ACTIVATION-42';

describe('Polling trigger: a key rotated while the workflow is active', () => {
	const sim = simulatorForTests({}, { resetEach: true });
	const { activate, listRequests, poll, seedCalls } = callEndedPolling(sim);
	afterEach(() => sim.setConfig({ apiKey: simCredentials(sim).apiKey }));

	it('is used from the next poll on, without reactivating', async () => {
		const credentials: ICredentialDataDecryptedObject = simCredentials(sim);
		const test = await activate({ credentials });

		// the account's key is rotated: the old one stops working, the credential gets the new one
		sim.setConfig({ apiKey: ROTATED_KEY });
		credentials.apiKey = ROTATED_KEY;
		const seeded = await seedCalls(3);
		sim.clearLog();

		const output = await poll(test);
		expect(emittedIds(output)).toEqual([seeded.first, seeded.first + 1, seeded.last]);
		const statuses = listRequests().map((entry) => entry.status);
		expect(statuses.length).toBeGreaterThan(0);
		expect(statuses.every((status: number) => status === 200)).toBe(true);
	});
});
