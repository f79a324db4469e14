#!/usr/bin/env node
/*
 * Adds the platform-only optional packages that package-lock.json lacks, so that
 * `npm ci` accepts the lock file.
 *
 * Why: some dependencies (unrs-resolver, a dependency of the lint rules) list one
 * native binding per platform as optional dependencies. npm records every one of
 * them in the lock file, but only when the registry serves them all; the registry
 * mirror of these machines serves only the Linux ones, so `npm install` writes a
 * lock file without the others, and `npm ci` then refuses it ("Missing:
 * @unrs/resolver-binding-darwin-arm64@ from lock file").
 *
 * The added entries carry name, version, os, cpu and libc (read from the
 * package's name, as napi-rs names them), so that npm skips them on every other
 * platform, as it skips the recorded Linux ones. On a platform that needs one, npm
 * fetches it from the registry by name and version.
 *
 *   node scripts/lock-platform-bindings.js          adds what is missing (after `npm install`)
 *   node scripts/lock-platform-bindings.js --check  exits 1 and names what is missing
 */
const fs = require('fs');
const path = require('path');

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32', 'netbsd', 'openbsd', 'sunos', 'aix'];
const CPU = ['arm', 'arm64', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32'];

/** `{ os, cpu, libc }` of a per-platform package name (`...-linux-arm-musleabihf`), or undefined. */
function platformOf(name) {
	const parts = name.split('/').pop().split('-');
	for (let i = parts.length - 2; i >= 0; i--) {
		if (!OS.includes(parts[i]) || !CPU.includes(parts[i + 1])) continue;
		const abi = parts[i + 2] || '';
		const libc = parts[i] !== 'linux' ? undefined : abi.startsWith('musl') ? 'musl' : abi.startsWith('gnu') ? 'glibc' : undefined;
		return { os: parts[i], cpu: parts[i + 1], libc };
	}
	return undefined;
}

/** Where npm would look for `name` from the package at `from` (a lock file key). */
function resolve(packages, from, name) {
	let dir = from;
	for (;;) {
		const key = (dir ? dir + '/' : '') + 'node_modules/' + name;
		if (packages[key]) return key;
		if (!dir) return undefined;
		const i = dir.lastIndexOf('/node_modules/');
		dir = i === -1 ? '' : dir.slice(0, i);
	}
}

function missingEntries(lock) {
	const packages = lock.packages || {};
	const added = {};
	for (const [key, pkg] of Object.entries(packages)) {
		for (const [name, range] of Object.entries(pkg.optionalDependencies || {})) {
			if (resolve(packages, key, name)) continue;
			const platform = platformOf(name);
			if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(range)) continue; // only exact versions of per-platform builds
			const at = packages['node_modules/' + name] || added['node_modules/' + name] ? key + '/node_modules/' + name : 'node_modules/' + name;
			if (added[at]) continue;
			added[at] = {
				version: range,
				cpu: [platform.cpu],
				...(pkg.dev ? { dev: true } : {}),
				...(platform.libc ? { libc: [platform.libc] } : {}),
				optional: true,
				os: [platform.os],
			};
		}
	}
	return added;
}

function main() {
	const file = path.resolve(__dirname, '..', 'package-lock.json');
	const text = fs.readFileSync(file, 'utf8');
	const lock = JSON.parse(text);
	const added = missingEntries(lock);
	const names = Object.keys(added);
	if (process.argv.includes('--check')) {
		if (names.length) {
			console.error(`package-lock.json lacks ${names.length} platform-only optional package(s), so \`npm ci\` would refuse it:`);
			for (const n of names) console.error(`  ${n}@${added[n].version}`);
			console.error('Run: node scripts/lock-platform-bindings.js');
			process.exit(1);
		}
		console.log('package-lock.json: every platform-only optional package is recorded');
		return;
	}
	if (!names.length) {
		console.log('package-lock.json: nothing to add');
		return;
	}
	// keep npm's order: keys of `packages` sorted as npm sorts them (localeCompare, "en")
	const packages = { ...lock.packages, ...added };
	const [root, ...rest] = Object.keys(packages);
	lock.packages = Object.fromEntries([root, ...rest.sort((a, b) => a.localeCompare(b, 'en'))].map((k) => [k, packages[k]]));
	fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
	console.log(`package-lock.json: added ${names.length} platform-only optional package(s): ${names.map((n) => n.replace(/^.*node_modules\//, '')).join(', ')}`);
}

if (require.main === module) main();
module.exports = { platformOf, missingEntries };
