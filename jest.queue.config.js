/**
 * Queue-mode layer: the pinned n8n 2.x (scripts/n8n-runtime/versions.json) as one
 * main and two workers with PostgreSQL and
 * Redis (test/queue). Run it with scripts/test-queue.sh, which installs the
 * services when missing, builds and packs, and cleans up after the run.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.queue.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	testTimeout: 300_000,
	maxWorkers: 1,
};
