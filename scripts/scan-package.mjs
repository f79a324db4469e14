/*
 * Runs @n8n/scan-community-package on the local, unpublished package (see
 * scan-package.sh): node scripts/scan-package.mjs <scanner dir> <tarball>
 *
 * The scanner's CLI (analyzePackageByName) fetches a published version from the
 * registry, checks its npm provenance, fetches the attested source from GitHub
 * and then lints two legs with its own ESLint config (buildScanConfig):
 *   source:  analyzePackage(sourceDir, SOURCE_FILE_PATTERNS)
 *   tarball: analyzePackage(packageDir, ['**\/*.js', 'package.json'])
 * Here the same exported analyzePackage and SOURCE_FILE_PATTERNS of the
 * scanner run on the repository (the source the package is built from) and on
 * the extracted local tarball. Only the provenance check cannot apply to an
 * unpublished package: it needs `npm publish --provenance` from CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [scannerDir, tarballArg] = process.argv.slice(2);
if (!scannerDir || !tarballArg) {
	console.error('usage: node scripts/scan-package.mjs <scanner package dir> <tarball>');
	process.exit(2);
}
const tarball = path.resolve(tarballArg);
const scannerPkg = JSON.parse(fs.readFileSync(path.join(scannerDir, 'package.json'), 'utf8'));
const scannerRequire = createRequire(path.join(scannerDir, 'package.json'));
// the scanner makes a temp folder when loaded; have `tmp` remove it at exit
scannerRequire('tmp').setGracefulCleanup();
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(pathToFileURL(path.join(scannerDir, 'scanner/scanner.mjs')).href);
const glob = scannerRequire('fast-glob');

console.log(`Scanner: ${scannerPkg.name}@${scannerPkg.version} (its analyzePackage and ESLint config)`);
console.log(`Tarball: ${path.relative(ROOT, tarball)}`);

// Extracted inside the repository so that the icon check below can load the
// node classes (n8n-workflow resolves from the repository's node_modules).
const packageDir = path.join(ROOT, '.tmp/scan/package');
fs.rmSync(packageDir, { recursive: true, force: true });
fs.mkdirSync(packageDir, { recursive: true });
execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);

const failures = [];
const countFiles = (dir, patterns) =>
	glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] }).length;

async function leg(name, dir, patterns) {
	const files = countFiles(dir, patterns);
	const result = await analyzePackage(dir, patterns);
	const where = path.relative(ROOT, dir) || '.';
	console.log(`\n[${name}] ${where}: ${files} files (${patterns.join(', ')}): ${result.passed ? 'passed' : `FAILED: ${result.message}`}`);
	if (result.details) console.log(result.details.trimEnd());
	if (result.passed) return;
	// one finding per ESLint problem of the stylish report: file:line:col rule message
	let file;
	let problems = 0;
	for (const line of (result.details || '').split('\n')) {
		if (/^\S/.test(line) && !line.startsWith('\u2716')) file = path.relative(ROOT, line.trim());
		const m = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.*?)\s{2,}(\S+)$/.exec(line);
		if (m) {
			failures.push(`${name} leg: ${file}:${m[1]}:${m[2]} ${m[3]} ${m[5]}: ${m[4]}`);
			problems++;
		}
	}
	if (!problems) failures.push(`${name} leg: ${result.message}`);
}

console.log('\n[provenance] not applicable to an unpublished package: publish with `npm publish --provenance` from CI (the scanner fails packages without it)');
await leg('source', ROOT, SOURCE_FILE_PATTERNS);
await leg('tarball', packageDir, ['**/*.js', 'package.json']);

// Package checks of the "Ready for users" issue.
console.log('\n[package]');
const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
const check = (ok, text) => {
	console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${text}`);
	if (!ok) failures.push(text);
};
for (const field of ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
	const value = pkg[field];
	const count = Array.isArray(value) ? value.length : Object.keys(value || {}).length;
	check(count === 0, `no runtime ${field} in the packed package.json${count ? `: ${JSON.stringify(value)}` : ''}`);
}
check(Object.keys(pkg.peerDependencies || {}).join() === 'n8n-workflow', `peerDependencies only n8n-workflow (${JSON.stringify(pkg.peerDependencies)})`);
const require = createRequire(path.join(packageDir, 'package.json'));
const distDir = path.join(packageDir, 'dist');
for (const kind of ['nodes', 'credentials']) {
	for (const rel of pkg.n8n?.[kind] || []) {
		const file = path.join(packageDir, rel);
		if (!fs.existsSync(file)) {
			check(false, `${rel} (listed in n8n.${kind}) is in the tarball`);
			continue;
		}
		let icon;
		try {
			const Class = Object.values(require(file)).find((v) => typeof v === 'function');
			const instance = new Class();
			icon = kind === 'nodes' ? instance.description.icon : instance.icon;
		} catch (error) {
			check(false, `${rel} loads: ${error.message}`);
			continue;
		}
		for (const theme of ['light', 'dark']) {
			const ref = typeof icon === 'object' && icon ? icon[theme] : undefined;
			const target = typeof ref === 'string' && ref.startsWith('file:') ? path.resolve(path.dirname(file), ref.slice(5)) : undefined;
			const ok = Boolean(target && target.startsWith(distDir + path.sep) && fs.existsSync(target));
			check(ok, `${rel}: ${theme} icon ${ref ?? '(none)'}${target ? ` -> ${path.relative(packageDir, target)}` : ''}`);
		}
	}
}

if (failures.length) {
	console.log(`\n${failures.length} finding(s):\n${failures.map((f) => `  - ${f}`).join('\n')}`);
	process.exit(1);
}
console.log('\nZero findings.');
process.exit(0);
