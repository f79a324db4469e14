/**
 * The unit tests mirror the code: every operation file
 * nodes/VoiceChatAssistant/actions/<resource>/<name>.operation.ts has its
 * tests in test/unit/actions/<resource>/<name>.test.ts. Suites about a
 * behaviour that spans operations live in test/unit/behaviours/.
 */
import { existsSync, readFileSync, readdirSync } from 'fs';
import { join } from 'path';

const actions = join(__dirname, '..', '..', 'nodes', 'VoiceChatAssistant', 'actions');

function operationFiles(): string[] {
	return readdirSync(actions, { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.flatMap((dir) =>
			readdirSync(join(actions, dir.name))
				.filter((file) => file.endsWith('.operation.ts'))
				.map((file) => `${dir.name}/${file.slice(0, -'.operation.ts'.length)}`),
		)
		.sort();
}

describe('Test layout', () => {
	it('finds the operation files', () => {
		expect(operationFiles().length).toBeGreaterThan(50);
	});

	it('every operation file has a unit test file of the same name', () => {
		const missing = operationFiles().filter(
			(operation) => !existsSync(join(__dirname, 'actions', `${operation}.test.ts`)),
		);
		expect(missing).toEqual([]);
	});

	it('the triggers import no operations: they share the transport and the descriptions, not actions/', () => {
		const root = join(__dirname, '../../nodes');
		const offending: string[] = [];
		const walk = (dir: string) => {
			for (const entry of readdirSync(dir, { withFileTypes: true })) {
				const path = join(dir, entry.name);
				if (entry.isDirectory()) walk(path);
				else if (
					entry.name.endsWith('.ts') &&
					/from '[^']*\/actions\//.test(readFileSync(path, 'utf8'))
				)
					offending.push(path.slice(root.length + 1));
			}
		};
		walk(join(root, 'VoiceChatAssistantTrigger'));
		walk(join(root, 'VoiceChatAssistantPollingTrigger'));
		expect(offending).toEqual([]);
	});
});
