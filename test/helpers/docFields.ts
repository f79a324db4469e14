/**
 * The "Fields" tables of the trigger guide (docs/triggers/*.md): per page, the
 * field names of the table under its "## Fields" heading (the first column's
 * code span) and whether the table says the field can be absent ("absent"
 * in its "When empty" column). Compared with the keys of items the triggers
 * really emit (test/workflow/docsFields.test.ts).
 */
import { readFileSync } from 'fs';
import { join } from 'path';

export interface DocumentedField {
	name: string;
	/** The "When empty" cell says the field can be missing from the item. */
	mayBeAbsent: boolean;
}

const ROOT = join(__dirname, '../..');

/** The rows of the first table whose header starts with "Field" under `## Fields` of a page. */
/** The cells of one Markdown table row, trimmed. */
export const tableCells = (line: string): string[] =>
	line
		.trim()
		.replace(/^\||\|$/g, '')
		.split('|')
		.map((c) => c.trim());

export function documentedFields(page: string): DocumentedField[] {
	const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
	const start = lines.findIndex((l) => /^##\s+Fields\s*$/.test(l));
	if (start < 0) throw new Error(`${page}: no "## Fields" section`);
	const end = lines.findIndex((l, i) => i > start && /^##?\s/.test(l));
	const section = lines.slice(start + 1, end < 0 ? undefined : end);
	const cells = tableCells;
	const headerAt = section.findIndex((l) => /^\|\s*Field\s*\|/.test(l));
	if (headerAt < 0) throw new Error(`${page}: no table with a "Field" column under "## Fields"`);
	const header = cells(section[headerAt]);
	const emptyColumn = header.indexOf('When empty');
	if (emptyColumn < 0) throw new Error(`${page}: the Fields table has no "When empty" column`);
	const fields: DocumentedField[] = [];
	for (const line of section.slice(headerAt + 2)) {
		if (!line.startsWith('|')) break;
		const row = cells(line);
		const name = /^`([^`]+)`$/.exec(row[0]);
		if (!name) throw new Error(`${page}: a Fields row without a \`field\` name: ${line}`);
		fields.push({ name: name[1], mayBeAbsent: /\babsent\b/.test(row[emptyColumn] ?? '') });
	}
	return fields;
}

/**
 * What differs between a page's table and an emitted item: fields the item has
 * and the table lacks, and fields the table lists that the item lacks without
 * the table saying they can be absent.
 */
export function fieldDifferences(page: string, item: Record<string, unknown>): string[] {
	const documented = documentedFields(page);
	const names = new Set(documented.map((f) => f.name));
	const out: string[] = [];
	for (const key of Object.keys(item)) {
		if (!names.has(key)) out.push(`${page}: the item has "${key}", the table does not`);
	}
	for (const field of documented) {
		if (!(field.name in item) && !field.mayBeAbsent)
			out.push(
				`${page}: the table lists "${field.name}", the item has none (and it is not marked absent)`,
			);
	}
	return out;
}
