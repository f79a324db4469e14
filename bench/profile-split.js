/**
 * Where each side of the trigger burst spends n8n's CPU: splits a CPU profile
 * of the n8n server (bench/trigger-burst.js run with BENCH_CPU_PROF=<dir>) by
 * the bursts' time windows, which the bench records on the same monotonic
 * clock, and prints per delivery what our trigger's bursts spent in each
 * function beyond what the Webhook node's bursts spent, largest first.
 *
 * Run: node bench/profile-split.js <n8n server .cpuprofile> [bench/results/trigger-burst.txt] [--inclusive] [--top=30]
 * --inclusive: time in a function and everything it calls (default: the function's own time).
 */
const fs = require('fs');
const path = require('path');

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = Object.fromEntries(process.argv.slice(2).filter((a) => a.startsWith('--')).map((a) => /^--([^=]+)=?(.*)$/.exec(a).slice(1)));
const [profileFile, resultsFile = path.join(__dirname, 'results', 'trigger-burst.txt')] = positional;
if (!profileFile) {
	console.error('usage: node bench/profile-split.js <n8n server .cpuprofile> [bench/results/trigger-burst.txt] [--inclusive] [--top=30]');
	process.exit(2);
}
const inclusive = 'inclusive' in flags;
const TOP = Number(flags.top || 30);

// the bench's JSON summary is the line after its one-line report
const summary = JSON.parse(fs.readFileSync(resultsFile, 'utf8').split('\n')[1]);
const windows = [];
for (const round of summary.rounds) {
	for (const side of ['ours', 'webhook', 'webhookAuth']) {
		const window = round[side]?.profileWindowUs;
		if (window) windows.push({ side, from: window[0], to: window[1] });
	}
}
if (!windows.length) throw new Error(`${resultsFile} has no profile windows: run the bench with BENCH_CPU_PROF=<dir>`);
const deliveries = {};
for (const { side } of windows) deliveries[side] = (deliveries[side] ?? 0) + summary.deliveries;

const profile = JSON.parse(fs.readFileSync(profileFile, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const nameOf = (node) => {
	const { functionName, url, lineNumber } = node.callFrame;
	return `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '')}:${lineNumber + 1}`;
};

/** side → function → µs */
const spent = {};
let time = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
	time += profile.timeDeltas[i];
	const window = windows.find((w) => time >= w.from && time <= w.to);
	if (!window) continue;
	// a sample stands for the time until the next one
	const us = profile.timeDeltas[i + 1] ?? 0;
	const bySide = (spent[window.side] ??= new Map());
	const names = new Set();
	for (let id = profile.samples[i]; id !== undefined; id = inclusive ? parents.get(id) : undefined) {
		names.add(nameOf(nodes.get(id)));
	}
	for (const name of names) bySide.set(name, (bySide.get(name) ?? 0) + us);
}

const perDelivery = (side, name) => (spent[side]?.get(name) ?? 0) / 1000 / (deliveries[side] ?? 1);
const total = (side) => [...(spent[side]?.values() ?? [])].reduce((a, b) => a + b, 0) / 1000 / (deliveries[side] ?? 1);
const names = new Set([...(spent.ours?.keys() ?? []), ...(spent.webhook?.keys() ?? [])]);
const rows = [...names]
	.map((name) => ({ name, ours: perDelivery('ours', name), webhook: perDelivery('webhook', name), auth: perDelivery('webhookAuth', name) }))
	.sort((a, b) => b.ours - b.webhook - (a.ours - a.webhook));
const ms = (n) => n.toFixed(3).padStart(7);
if (!inclusive) {
	console.log(`ms per delivery, sampled in the bursts (idle included): ours ${total('ours').toFixed(2)}, Webhook node ${total('webhook').toFixed(2)}, Webhook + Header Auth ${total('webhookAuth').toFixed(2)}`);
}
console.log(`${inclusive ? 'inclusive' : 'own'} ms per delivery:   ours  webhook  w+auth  ours-webhook  function`);
for (const row of rows.slice(0, TOP)) {
	console.log(`${' '.repeat(22)}${ms(row.ours)}  ${ms(row.webhook)} ${ms(row.auth)}  ${ms(row.ours - row.webhook)}      ${row.name.slice(0, 120)}`);
}
