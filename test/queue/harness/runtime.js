/**
 * The pinned n8n runtime of the queue suite (n8n 2.41.1 on Node 24, from
 * scripts/n8n-runtime/install.sh v2) and the packed package it installs: the
 * e2e harness's own lookups, the runtime read once per process.
 */
const e2e = require('../../e2e/harness/n8n');

let cached;

function runtimeEnv() {
	cached ??= e2e.runtimeEnv('v2');
	return cached;
}

module.exports = { runtimeEnv, packedTarball: e2e.packedTarball, installPackage: e2e.installPackage, PACKAGE: e2e.PACKAGE, ROOT: e2e.ROOT };
