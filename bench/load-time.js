/**
 * Time to load the package's node files the way n8n loads them: a fresh
 * process of n8n's Node (with n8n-workflow already loaded, as in n8n), then
 * require the credential and both nodes from the installed package and build
 * their descriptions. Compared with n8n's own HTTP Request node, loaded the
 * same way. Median of several fresh processes.
 * Run: node bench/load-time.js [runs]
 */
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { createN8nHome, runtimeEnv, runtimeModulesDir, PACKAGE } = require('../test/harness/n8n');

const RUNS = Number(process.argv[2] || 9);

const probe = `
const files = JSON.parse(process.argv[1]);
require(process.argv[2]); // n8n-workflow, already loaded in n8n
const start = performance.now();
for (const file of files) {
	const exports = require(file);
	for (const Type of Object.values(exports)) {
		const instance = new Type();
		// what n8n reads at load: the description (nodes) or the properties (credentials)
		void (instance.description ?? instance.nodeVersions ?? instance.properties);
	}
}
process.stdout.write(String(performance.now() - start));
`;

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
	const runtime = runtimeEnv();
	const home = await createN8nHome();
	try {
		const pkgDir = path.join(home.folder, '.n8n/nodes/node_modules', PACKAGE);
		const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).n8n;
		const ours = [...manifest.credentials, ...manifest.nodes].map((f) => path.join(pkgDir, f));
		const n8nModules = runtimeModulesDir(runtime);
		const workflowLib = path.join(n8nModules, 'n8n-workflow');
		const httpRequest = [path.join(n8nModules, 'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js')];
		const time = (files) =>
			median(
				Array.from({ length: RUNS }, () =>
					Number(execFileSync(runtime.N8N_NODE_BIN, ['-e', probe, JSON.stringify(files), workflowLib], { encoding: 'utf8' })),
				),
			);
		const oursMs = time(ours);
		const httpMs = time(httpRequest);
		const line = `Load of the package's node files (credential + 2 nodes, median of ${RUNS} fresh processes): ${oursMs.toFixed(1)} ms; n8n's HTTP Request node loaded the same way: ${httpMs.toFixed(1)} ms; ratio ${(oursMs / httpMs).toFixed(2)}`;
		console.log(line);
		fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
		fs.writeFileSync(path.join(__dirname, 'results', 'load-time.txt'), line + '\n');
	} finally {
		home.cleanup();
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
