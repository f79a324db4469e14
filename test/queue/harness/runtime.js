/**
 * The pinned n8n runtime (scripts/n8n-runtime/install.sh v2: n8n 2.41.1 on
 * Node 24), and the packed package (.tmp/pack/*.tgz) the suite installs.
 */
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '../../..');
const PACKAGE = 'n8n-nodes-voice-chat-assistant';
let cached;

function runtimeEnv() {
	if (cached) return cached;
	const envFile = execFileSync('bash', [path.join(ROOT, 'scripts/n8n-runtime/install.sh'), 'v2'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
		.trim()
		.split('\n')
		.pop();
	const vars = {};
	for (const m of fs.readFileSync(envFile, 'utf8').matchAll(/^export (\w+)="(.*)"$/gm)) vars[m[1]] = m[2];
	cached = vars;
	return vars;
}

function packedTarball() {
	const dir = path.join(ROOT, '.tmp/pack');
	const file = fs.existsSync(dir) && fs.readdirSync(dir).find((f) => f.startsWith(PACKAGE) && f.endsWith('.tgz'));
	if (!file) throw new Error('No packed package in .tmp/pack: run scripts/test-queue.sh (it builds and packs), or `npm run build && npm pack --pack-destination .tmp/pack`');
	return path.join(dir, file);
}

module.exports = { runtimeEnv, packedTarball, PACKAGE, ROOT };
