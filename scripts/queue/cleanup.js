#!/usr/bin/env node
/**
 * Stops every process the queue-mode suite started and is still running
 * (n8n main and workers, PostgreSQL, Redis), then removes their temp folders.
 * Reads the registry the suite writes (QUEUE_REGISTRY_FILE or
 * .tmp/queue-run/registry.jsonl). Safe to run at any time: it only signals a
 * pid whose start time still matches the one recorded.
 *   node scripts/queue/cleanup.js [registry-file]
 */
const { cleanupAll } = require('../../test/queue/harness/registry');

const file = process.argv[2] || undefined;
cleanupAll({ file, log: (line) => console.log(`[queue cleanup] ${line}`) })
	.then(({ processes, dirs }) => {
		if (processes.length || dirs.length) console.log(`[queue cleanup] stopped ${processes.length} process(es), removed ${dirs.length} folder(s)`);
	})
	.catch((error) => {
		console.error('[queue cleanup] failed:', error);
		process.exit(1);
	});
