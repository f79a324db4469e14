/**
 * The unit tests mirror the code: every operation file
 * nodes/VoiceChatAssistant/actions/<resource>/<name>.operation.ts has its
 * tests in test/unit/actions/<resource>/<name>.test.ts. Suites about a
 * behaviour that spans operations live in test/unit/behaviours/.
 */
import { existsSync, readdirSync } from 'fs';
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
});
