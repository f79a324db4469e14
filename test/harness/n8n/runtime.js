/**
 * The n8n runtime (installed by scripts/n8n-runtime/install.sh into the
 * cache), the packed package (.tmp/pack) and its installation into a user
 * folder as n8n installs community packages.
 */
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '../../..');
const PACKAGE = 'n8n-nodes-voice-chat-assistant';

const cache = new Map();

/**
 * The variables of the runtime of an n8n line (`v2` or `v1`): N8N_NODE_BIN,
 * N8N_BIN, N8N_RUNTIME_DIR... Runs install.sh (which installs on first use and
 * prints its env file), once per line and process.
 */
function runtimeEnv(line = 'v2') {
	if (!cache.has(line)) {
		const envFile = execFileSync(
			'bash',
			[path.join(ROOT, 'scripts/n8n-runtime/install.sh'), line],
			{ encoding: 'utf8' },
		)
			.trim()
			.split('\n')
			.pop();
		const vars = {};
		for (const m of fs.readFileSync(envFile, 'utf8').matchAll(/^export (\w+)="(.*)"$/gm))
			vars[m[1]] = m[2];
		cache.set(line, vars);
	}
	return cache.get(line);
}

/** The folder of n8n's own dependencies in a runtime. */
function runtimeModulesDir(runtime = runtimeEnv()) {
	return path.join(runtime.N8N_RUNTIME_DIR, 'n8n/node_modules');
}

/** n8n's own copy of a module (bcryptjs, pg, flatted...): the runtime is installed anyway. */
function runtimeModule(name, runtime = runtimeEnv()) {
	return require(path.join(runtimeModulesDir(runtime), name));
}

/**
 * The packed package: N8N_PACKED_TARBALL when set (scripts/test.sh sets a copy of its own, so that a
 * layer that packs again, try-it, cannot take the file from a layer running beside it), else the
 * tarball in .tmp/pack.
 */
function packedTarball() {
	if (process.env.N8N_PACKED_TARBALL) return process.env.N8N_PACKED_TARBALL;
	const dir = path.join(ROOT, '.tmp/pack');
	const file =
		fs.existsSync(dir) &&
		fs.readdirSync(dir).find((f) => f.startsWith(PACKAGE) && f.endsWith('.tgz'));
	if (!file)
		throw new Error(
			'No packed package in .tmp/pack: run `npm run build && npm pack --pack-destination .tmp/pack` (scripts/test.sh and scripts/test-queue.sh do)',
		);
	return path.join(dir, file);
}

/**
 * Installs the packed package into `<folder>/.n8n/nodes` as n8n installs
 * community packages, for the runtime `runtime` (from runtimeEnv()).
 */
function installPackage(folder, tarball = packedTarball(), runtime = runtimeEnv()) {
	const nodesDir = path.join(folder, '.n8n/nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', PACKAGE);
	fs.mkdirSync(pkgDir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '--strip-components=1', '-C', pkgDir]);
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify(
			{ name: 'installed-nodes', private: true, dependencies: { [PACKAGE]: 'file:' + tarball } },
			null,
			2,
		),
	);
	// npm installs the peer dependency next to the package; n8n's own copy stands in for it
	fs.symlinkSync(
		path.join(runtimeModulesDir(runtime), 'n8n-workflow'),
		path.join(nodesDir, 'node_modules/n8n-workflow'),
	);
}

module.exports = {
	ROOT,
	PACKAGE,
	runtimeEnv,
	runtimeModulesDir,
	runtimeModule,
	packedTarball,
	installPackage,
};
