/**
 * Account: every operation, run as a real workflow (n8n-core) against the
 * simulator. The credential, a wrong API key and the pairing of items are in
 * test/workflow/account.test.ts.
 */
import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import { simulatorForTests } from '../helpers/workflows';

const { exercised, operations } = operationRunner();

describe('Account: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests();
	const account = operations(sim, 'account');

	it('Account: Get Profile, Get API Keys', async () => {
		expect((await account('getProfile'))[0].email).toBe(sim.state.user.email);
		expect(await account('getApiKeys')).toHaveLength(sim.state.apiKeys.length);
	});

	it('ran every operation of Account', () => {
		expect(ownRuns('account', exercised)).toEqual([...RESOURCE_FILES.account].sort());
	});
});
