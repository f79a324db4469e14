/**
 * End-to-end layer: the packed package installed into a real n8n (cached
 * runtime, see scripts/n8n-runtime) and driven through its CLI and server
 * against the simulator. Suites share one n8n home per file and run in band.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	// try-it brings up n8n 2.x (what new users run): it belongs to the v2 pass only
	testPathIgnorePatterns: process.env.N8N_E2E_LINE === 'v1' ? ['/node_modules/', 'tryIt\\.e2e\\.test\\.ts$'] : ['/node_modules/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	// a file's n8n start and first polls took over 180 s beside the other layers on a 2-core machine
	testTimeout: 300_000,
	maxWorkers: 1,
};
