/**
 * n8n processes sharing one account (queue-mode workers, each with its own
 * rate limiter and the credential's default settings), in virtual time:
 * the node's limiter from dist/ against the simulator's sliding windows, at
 * the service's real limits (100 per minute, bursts of 20 per 10 s) with
 * 300 ms per request, and at the queue layer's scale (× 10, 20 ms).
 * Prints one line per case: requests, 429s, wall time against the floor of
 * the account's limits. Run: npm run build && node bench/shared-budget.js
 */
const fs = require('fs');
const path = require('path');
const { simulateSharedAccount } = require('../test/harness/sharedAccount');
const { SlidingWindowLimiter } = require('../dist/nodes/VoiceChatAssistant/transport/rateLimiter');
const { setClock } = require('../dist/nodes/VoiceChatAssistant/transport/clock');

const REAL = { perMinute: 100, burst: 20, burstWindowMs: 10_000 };
const SCALED = { perMinute: 1000, burst: 200, burstWindowMs: 10_000 };

const cases = [
	{ label: 'scaled ×10, 1 process × 5 executions', processes: 1, streams: 5, items: 500, latencyMs: 20, limits: SCALED },
	{ label: 'scaled ×10, 2 processes × 5 executions', processes: 2, streams: 5, items: 500, latencyMs: 20, limits: SCALED },
	{ label: 'scaled ×10, 3 processes × 5 executions', processes: 3, streams: 5, items: 500, latencyMs: 20, limits: SCALED },
	{ label: 'real, 1 process × 10 executions', processes: 1, streams: 10, items: 1000, latencyMs: 300, limits: REAL },
	{ label: 'real, 2 processes × 10 executions', processes: 2, streams: 10, items: 1000, latencyMs: 300, limits: REAL },
	{ label: 'real, 2 processes × 10, 3,000 leads', processes: 2, streams: 10, items: 3000, latencyMs: 300, limits: REAL },
	{ label: 'real, 2 processes, the 2nd joins at 90 s', processes: 2, streams: 10, items: 1000, latencyMs: 300, limits: REAL, startOffsetsMs: [0, 90_000] },
	{ label: 'real, 3 processes × 10 executions', processes: 3, streams: 10, items: 1000, latencyMs: 300, limits: REAL },
];

async function main() {
	const lines = [];
	for (const c of cases) {
		const r = await simulateSharedAccount({ Limiter: SlidingWindowLimiter, setClock, ...c });
		const line = `${c.label.padEnd(42)} items ${r.items}  stored ${r.stored}  requests ${r.requests}  429s ${r.refused} (${(100 * r.refusedShare).toFixed(1)} %)  wall ${(r.wallMs / 1000).toFixed(1)} s  floor ${(r.floorMs / 1000).toFixed(1)} s  ratio ${r.ratio.toFixed(2)}`;
		console.log(line);
		lines.push(line);
	}
	const out = path.join(__dirname, 'results');
	fs.mkdirSync(out, { recursive: true });
	fs.writeFileSync(path.join(out, 'shared-budget.txt'), lines.join('\n') + '\n');
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
