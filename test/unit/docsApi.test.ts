/**
 * docs/api.md lists the endpoints each operation calls: every operation of
 * the node is named there as the editor shows it, "<Resource> → <Operation>",
 * and every resource has its table. An operation added to the node without its
 * mention in docs/api.md (or removed from the node and left there) fails here.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { nodeOperations } from '../helpers/nodeOperations';

const DOC = readFileSync(join(__dirname, '../../docs/api.md'), 'utf8');

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * "<Resource> → <Operation>" as a whole name: not the start of a longer
 * operation name of the same resource ("Get" inside "Get Many", "Get Many"
 * inside "Get Many Outbound"), nor the end of a longer word before it.
 */
function mention(resource: string, operation: string, operations: string[]): RegExp {
	const longer = operations
		.filter((other) => other.startsWith(`${operation} `))
		.map((other) => escape(other.slice(operation.length)));
	const notLonger = longer.length ? `|${longer.join('|')}` : '';
	return new RegExp(`(?<![\\w-])${escape(resource)} → ${escape(operation)}(?![\\w-]${notLonger})`);
}

/** The doc's section 2, "Endpoints by resource". */
function endpointsSection(): string {
	const match = /^## 2\. Endpoints by resource\s*$([\s\S]*?)(?=^## )/m.exec(DOC);
	if (!match) throw new Error('docs/api.md has no "## 2. Endpoints by resource" section');
	return match[1];
}

const operations = nodeOperations();

describe('docs/api.md', () => {
	it('reads the node as meant: every resource with its operations', () => {
		expect(operations.get('Lead')).toEqual(expect.arrayContaining(['Create', 'Get Many']));
		expect(operations.get('Mid Call Tool')).toEqual(expect.arrayContaining(['Get', 'Get Many']));
		const empty = [...operations].filter(([, names]) => names.length === 0).map(([r]) => r);
		expect(empty).toEqual([]);
	});

	it.each([...operations])(
		'names every operation of %s as "<Resource> → <Operation>"',
		(resource, names) => {
			const missing = names.filter((name) => !mention(resource, name, names).test(DOC));
			expect(missing).toEqual([]);
		},
	);

	it('names no operation that the node lacks', () => {
		const unknown: string[] = [];
		for (const [resource, names] of operations) {
			const after = new RegExp(`(?<![\\w-])${escape(resource)} → ([^;,.|()*\`\\n]+)`, 'g');
			for (const match of DOC.matchAll(after)) {
				const text = match[1];
				if (!names.some((name) => mention(resource, name, names).test(`${resource} → ${text}`)))
					unknown.push(`${resource} → ${text.trim()}`);
			}
		}
		expect(unknown).toEqual([]);
	});

	it('has a table for every resource in section 2', () => {
		const section = endpointsSection();
		const missing = [...operations.keys()].filter(
			(resource) => !new RegExp(`^### ${escape(resource)}(?: \\(|\\s*$)`, 'm').test(section),
		);
		expect(missing).toEqual([]);
	});

	it('finds whole names only: "Get" is not found inside "Get Many"', () => {
		const names = ['Get', 'Get Many', 'Get Many Outbound'];
		expect(mention('Assistant', 'Get', names).test('Assistant → Get Many')).toBe(false);
		expect(mention('Assistant', 'Get Many', names).test('Assistant → Get Many Outbound')).toBe(
			false,
		);
		expect(mention('Assistant', 'Get', names).test('Assistant → Get (pages of 100)')).toBe(true);
		expect(mention('Assistant', 'Get Many', names).test('Assistant → Get Many; pickers')).toBe(
			true,
		);
		expect(mention('Lead', 'Create', ['Create']).test("Lead → Create's options")).toBe(true);
		expect(mention('Lead', 'Create', ['Create']).test('Lead → Creates')).toBe(false);
	});
});
