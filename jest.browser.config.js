/**
 * Browser layer: the n8n editor in a real headless Chromium (Debian's
 * `chromium`, driven by playwright-core) against the real n8n of the e2e layer
 * (N8N_E2E_LINE: v2 or v1) with the packed package. Screenshots: .tmp/browser/.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/browser'],
	testMatch: ['**/*.browser.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	testTimeout: 180_000,
	maxWorkers: 1,
};
