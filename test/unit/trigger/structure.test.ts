/**
 * The webhook trigger's structure, as CONTRIBUTING's "Adding a webhook event" promises it: the
 * call family's events are data (one table, core/events.ts: no code compares a call event), what
 * the trigger keeps in process memory is made in one module (core/memory.ts: one reset), the form
 * shows each field for its events (no `hide` lists), and no module of the nodes imports itself
 * back through others (type imports included).
 */
import { readFileSync, readdirSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';

const NODES = join(__dirname, '../../../nodes');
const TRIGGER = join(NODES, 'VoiceChatAssistantTrigger');

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sources(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The lines of the files under `dir` (but `except`) that match `pattern`, as `file:line: text`. */
function linesMatching(dir: string, pattern: RegExp, except: string[] = []): string[] {
	return sources(dir)
		.filter((file) => !except.includes(relative(dir, file)))
		.flatMap((file) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.flatMap((line, index) =>
					pattern.test(line) ? [`${relative(NODES, file)}:${index + 1}: ${line.trim()}`] : [],
				),
		);
}

/** The import circles among the nodes' modules (relative imports, `import type` included). */
function importCircles(): string[][] {
	const graph = new Map<string, string[]>();
	for (const file of sources(NODES)) {
		const imports = [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map(
			([, target]) => `${normalize(join(dirname(file), target))}.ts`,
		);
		graph.set(file, imports);
	}
	const circles: string[][] = [];
	const done = new Set<string>();
	const visit = (file: string, path: string[]) => {
		if (path.includes(file)) {
			circles.push(path.slice(path.indexOf(file)).map((f) => relative(NODES, f)));
			return;
		}
		if (done.has(file)) return;
		for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
		done.add(file);
	};
	for (const file of graph.keys()) visit(file, []);
	return circles;
}

describe('the webhook trigger is built as CONTRIBUTING says', () => {
	it('finds the trigger and its modules', () => {
		expect(sources(TRIGGER).length).toBeGreaterThan(30);
	});

	it('no code compares a call event: the call family reads its table (CALL_EVENTS in core/events.ts)', () => {
		expect(
			linesMatching(TRIGGER, /[!=]==\s*(INBOUND|POST_CALL|CONVERSATION_ENDED)\b/, [
				'core/events.ts',
			]),
		).toEqual([]);
	});

	it('what the trigger keeps in process memory is made in core/memory.ts, so one reset forgets it all', () => {
		expect(
			linesMatching(TRIGGER, /^(const|let) \w+(: [^=]+)? = new (Map|Set)(<.*>)?\(\)/, [
				'core/memory.ts',
			]),
		).toEqual([]);
	});

	it('the forms show each field for its own events: no `hide` lists by event', () => {
		expect(linesMatching(NODES, /hide: \{\s*['"]?\/?event/)).toEqual([]);
	});

	it('no import circle among the nodes’ modules, type imports included', () => {
		expect(importCircles()).toEqual([]);
	});
});
