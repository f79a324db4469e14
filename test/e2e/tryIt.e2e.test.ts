/**
 * The README's `bash scripts/try-it.sh`, verified from the outside by
 * scripts/verify-try-it.js: nodes, credential and examples visible through
 * n8n's REST API, the lead-import example run against the simulator, and
 * Ctrl-C stopping every process it started.
 */
import { spawn } from 'child_process';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');
// try-it runs n8n 2.x whatever the line: jest.e2e.config.js runs this file in the 1.x pass only

describe('try-it', () => {
	it(
		'brings up n8n with the package and the examples, runs the lead import, and stops cleanly',
		async () => {
			const { code, output } = await new Promise<{ code: number | null; output: string }>(
				(resolve) => {
					const child = spawn(process.execPath, [path.join(ROOT, 'scripts/verify-try-it.js')], {
						cwd: ROOT,
						stdio: ['ignore', 'pipe', 'pipe'],
					});
					let output = '';
					child.stdout.on('data', (d) => (output += d));
					child.stderr.on('data', (d) => (output += d));
					child.on('exit', (code) => resolve({ code, output }));
				},
			);
			if (code !== 0) throw new Error(`verify-try-it exited ${code}:\n${output}`);
			expect(output).toContain('verify-try-it: all checks passed');
		},
		20 * 60_000,
	);
});
