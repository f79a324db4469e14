/** Unit and workflow tests (the e2e layer has its own config: jest.e2e.config.js). */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.test.json' }];
// scripts/test.sh runs these layers beside the e2e lines: a test that takes 1 s alone may take
// several on a busy 2-core machine, and no unit or workflow test waits for time to pass
const testTimeout = 30_000;

module.exports = {
	// a global option: Jest ignores it inside a project (and warns "Unknown option"), leaving 5 s
	testTimeout,
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			roots: ['<rootDir>/test/unit'],
			testMatch: ['**/*.test.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/helpers/nockSetup.ts'],
			transform: { '^.+\\.ts$': tsJest },
		},
		{
			displayName: 'workflow',
			testEnvironment: 'node',
			roots: ['<rootDir>/test/workflow'],
			testMatch: ['**/*.test.ts'],
			transform: { '^.+\\.ts$': tsJest },
		},
	],
};
