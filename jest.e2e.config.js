/**
 * End-to-end layer: the packed package installed into a real n8n (cached
 * runtime, see scripts/n8n-runtime) and driven through its CLI and server
 * against the simulator. Suites share one n8n home per file and run in band.
 */
/**
 * Files that run on one line only. What needs real minutes runs once where one line shows the
 * behaviour: the lead and campaign statuses are the polling trigger's logic on n8n's poll scheduler,
 * which events.e2e's polling tests hold on 1.x as well; a WhatsApp receipt's signature, age and
 * repeat checks are the node's own code, behind the webhook path that trigger.e2e holds on 1.x as well;
 * the catch-up after n8n was stopped is triggerLife.e2e's restart in a busy stream on 1.x as well, and
 * a recording download that fails is the node's own code.
 */
const V2_ONLY = ['leadCampaignEvents', 'whatsappStatus', 'triggerOutage'];
/**
 * Try-it brings up n8n 2.x itself (what new users run), whatever the line: it runs in the 1.x pass,
 * whose files take about four minutes less than the 2.x pass's (scripts/test.sh runs both at once).
 */
const IN_V1_PASS = ['tryIt'];

const only = (names) => names.map((name) => `/${name}\\.e2e\\.test\\.ts$`);

module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	testPathIgnorePatterns:
		process.env.N8N_E2E_LINE === 'v1'
			? ['/node_modules/', ...only(V2_ONLY)]
			: ['/node_modules/', ...only(IN_V1_PASS)],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	// a file's n8n start and first polls took over 180 s beside the other layers on a 2-core machine
	testTimeout: 300_000,
	maxWorkers: 1,
};
