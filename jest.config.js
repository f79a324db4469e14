/** Unit and workflow tests (the e2e layer has its own config: jest.e2e.config.js). */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.test.json' }];

module.exports = {
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
