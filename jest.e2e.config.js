/**
 * End-to-end layer: the packed package installed into a real n8n (cached
 * runtime, see scripts/n8n-runtime) and driven through its CLI and server
 * against the simulator. Suites share one n8n home per file and run in band.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	testTimeout: 180_000,
	maxWorkers: 1,
};
