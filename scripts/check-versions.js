#!/usr/bin/env node
/*
 * The tested n8n versions live in scripts/n8n-runtime/versions.json; the docs that
 * name them must name the same ones. Checks README's "Compatibility" section (its
 * bold `**n8n <version>**`, the tested versions, must be exactly the pinned ones) and the
 * "Tested with n8n ..." line of docs/queue-mode.md (the 2.x line). Exits 1 with
 * what differs.
 */
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const versions = require('./n8n-runtime/versions.json');
const problems = [];

function section(markdown, title) {
	const m = new RegExp(`^## ${title}\\s*$([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(markdown);
	return m ? m[1] : undefined;
}

const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const compat = section(readme, 'Compatibility');
if (compat === undefined) problems.push('README.md has no "## Compatibility" section');
else {
	const named = new Set([...compat.matchAll(/\*\*n8n v?(\d+\.\d+\.\d+)\*\*/g)].map((m) => m[1]));
	for (const [line, v] of Object.entries(versions)) {
		if (!named.has(v.n8n)) problems.push(`README.md, Compatibility: does not name **n8n ${v.n8n}** (line ${line}, scripts/n8n-runtime/versions.json)`);
	}
	const pinned = new Set(Object.values(versions).map((v) => v.n8n));
	for (const v of named) if (!pinned.has(v)) problems.push(`README.md, Compatibility: names **n8n ${v}** as tested, which scripts/n8n-runtime/versions.json does not pin`);
}

const queueDoc = path.join(root, 'docs/queue-mode.md');
if (fs.existsSync(queueDoc)) {
	for (const m of fs.readFileSync(queueDoc, 'utf8').matchAll(/Tested with n8n (\d+\.\d+\.\d+)/g)) {
		if (m[1] !== versions.v2.n8n) problems.push(`docs/queue-mode.md: "Tested with n8n ${m[1]}", but the 2.x line is ${versions.v2.n8n}`);
	}
}

if (problems.length) {
	console.error(problems.join('\n'));
	process.exit(1);
}
console.log(`docs name the tested n8n versions: ${Object.entries(versions).map(([l, v]) => `${l} ${v.n8n}`).join(', ')}`);
