import js from '@eslint/js';
import { config } from '@n8n/node-cli/eslint';

// The tests are not shipped: n8n's community-node rules (no secrets, no child processes, no
// network globals, ...) are for the node's own code, so they are switched off under test/.
const communityNodeRulesOff = Object.fromEntries(
	config
		.flatMap((block) => Object.keys(block.rules ?? {}))
		.filter(
			(rule) => rule.startsWith('@n8n/community-nodes/') || rule.startsWith('n8n-nodes-base/'),
		)
		.map((rule) => [rule, 'off']),
);

const unusedVars = [
	'error',
	{
		argsIgnorePattern: '^_',
		varsIgnorePattern: '^_',
		caughtErrorsIgnorePattern: '^_',
		ignoreRestSiblings: true,
	},
];

const NODE_AND_JEST_GLOBALS = {
	Blob: 'readonly',
	Buffer: 'readonly',
	FormData: 'readonly',
	URL: 'readonly',
	URLSearchParams: 'readonly',
	__dirname: 'readonly',
	__filename: 'readonly',
	clearTimeout: 'readonly',
	clearInterval: 'readonly',
	console: 'readonly',
	fetch: 'readonly',
	performance: 'readonly',
	process: 'readonly',
	setImmediate: 'readonly',
	setTimeout: 'readonly',
	setInterval: 'readonly',
	require: 'readonly',
	module: 'readonly',
	exports: 'readonly',
	describe: 'readonly',
	it: 'readonly',
	test: 'readonly',
	expect: 'readonly',
	beforeAll: 'readonly',
	afterAll: 'readonly',
	beforeEach: 'readonly',
	afterEach: 'readonly',
	jest: 'readonly',
};

export default [
	...config,
	{
		files: ['test/**/*.ts'],
		rules: {
			...communityNodeRulesOff,
			'@typescript-eslint/no-unused-vars': unusedVars,
		},
	},
	{
		// The tests that drive a real n8n, its REST API and the browser read untyped JSON and
		// the CommonJS harness.
		files: [
			'test/e2e/**/*.ts',
			'test/queue/**/*.ts',
			'test/browser/**/*.ts',
			'test/workflow/**/*.ts',
		],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
		},
	},
	{
		files: [
			'test/e2e/**/*.ts',
			'test/queue/**/*.ts',
			'test/browser/**/*.ts',
			'test/harness/**/*.ts',
		],
		rules: {
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
	{
		// The simulator, the harness and a few helpers are plain CommonJS.
		files: ['test/**/*.js'],
		...js.configs.recommended,
		languageOptions: {
			sourceType: 'commonjs',
			// Node's and jest's globals the CommonJS files use
			globals: NODE_AND_JEST_GLOBALS,
		},
		rules: {
			...js.configs.recommended.rules,
			'no-unused-vars': unusedVars,
		},
	},
];
