/**
 * What the docs say about the nodes, compared with the nodes' descriptions:
 * the option tables of the trigger guide (docs/triggers/: names and defaults),
 * the README's and the guide's event tables (the events of both triggers),
 * every link between the docs (relative links, the README's links into this
 * repository, and their anchors), and the size of each user page.
 * An option renamed or given another default, an event added or removed, a
 * heading renamed or a file moved without the docs following fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { tableCells } from '../helpers/docFields';
import { documentedOperations, nodeOperations } from '../helpers/nodeOperations';
import { VoiceChatAssistantTrigger } from '../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';
import { VoiceChatAssistantPollingTrigger } from '../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';

const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** The repository as package.json names it: the README's links point there (they work on npm's page). */
const REPO = (JSON.parse(read('package.json')) as { repository: { url: string } }).repository.url
	.replace(/^git\+/, '')
	.replace(/\.git$/, '');
const RAW = REPO.replace('https://github.com/', 'https://raw.githubusercontent.com/');

const webhook = new VoiceChatAssistantTrigger().description;
const polling = new VoiceChatAssistantPollingTrigger().description;

/** Events being added to the triggers: the README lists them already. */
const EVENTS_BEING_ADDED = {
	Webhook: ['WhatsApp Message Status'],
	Polling: ['Lead Status Changed', 'Campaign Status Changed'],
};

type Property = INodeProperties | INodePropertyCollection;

/** Every property of a description, also those inside collections and fixed collections. */
function allProperties(description: INodeTypeDescription): Property[] {
	const out: Property[] = [];
	const walk = (list: Property[]) => {
		for (const p of list) {
			out.push(p);
			const nested = (p as INodeProperties).options ?? (p as INodePropertyCollection).values;
			if (Array.isArray(nested)) {
				walk(nested.filter((o): o is Property => 'displayName' in o && !('value' in o)));
			}
		}
	};
	walk(description.properties);
	return out;
}

/** The event names of a trigger, as its Event picker shows them. */
function eventNames(description: INodeTypeDescription): string[] {
	const event = description.properties.find((p) => p.name === 'event')!;
	return (event.options as INodePropertyOptions[]).map((o) => o.name);
}

/** A property's default as the docs write it: on/off, all/none, a number, an option's name. */
function docDefaults(p: Property): string[] {
	const property = p as INodeProperties;
	const value = property.default as unknown;
	if (typeof value === 'boolean') return [value ? 'on' : 'off'];
	if (typeof value === 'number') return [String(value)];
	const empty =
		value === '' ||
		(Array.isArray(value) && value.length === 0) ||
		(value !== null &&
			typeof value === 'object' &&
			!Array.isArray(value) &&
			String((value as { value?: unknown }).value ?? '') === '');
	if (empty) return ['all', 'none'];
	const options = (property.options ?? []) as INodePropertyOptions[];
	// a list of options: their names as the editor shows them, separated by commas
	if (Array.isArray(value))
		return [value.map((v) => options.find((o) => o.value === v)?.name ?? String(v)).join(', ')];
	const option = ((property.options ?? []) as INodePropertyOptions[]).find(
		(o) => o.value === value,
	);
	return option ? [option.name] : [String(value)];
}

/** The Markdown of a section: from its heading to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
	const lines = markdown.split('\n');
	const start = lines.findIndex((l) => l.replace(/^#+\s*/, '') === heading && /^#+\s/.test(l));
	if (start < 0) throw new Error(`no section "${heading}"`);
	const level = /^#+/.exec(lines[start])![0].length;
	const end = lines.findIndex(
		(l, i) => i > start && /^#+\s/.test(l) && /^#+/.exec(l)![0].length <= level,
	);
	return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

interface Row {
	names: string[];
	cells: string[];
}

/** The tables of a piece of Markdown: header cells, and per row its bold names and its cells. */
function tables(markdown: string): Array<{ header: string[]; rows: Row[] }> {
	const out: Array<{ header: string[]; rows: Row[] }> = [];
	const cells = tableCells;
	const lines = markdown.split('\n');
	for (let i = 0; i < lines.length - 1; i++) {
		if (!lines[i].startsWith('|') || !/^\|[-|: ]+\|$/.test(lines[i + 1].trim())) continue;
		if (i > 0 && lines[i - 1].startsWith('|')) continue;
		const header = cells(lines[i]);
		const rows: Row[] = [];
		for (let j = i + 2; j < lines.length && lines[j].startsWith('|'); j++) {
			const row = cells(lines[j]);
			// the bold names of the first cell: "**Include Recording** (post-call only)" names one option
			const names = [...row[0].matchAll(/\*\*(.+?)\*\*/g)].map((m) => m[1]);
			rows.push({ names, cells: row });
		}
		out.push({ header, rows });
	}
	return out;
}

const CALL_PAGE = 'docs/triggers/call-ended-webhook.md';

describe('the trigger guide (docs/triggers/) against the triggers', () => {
	const cases: Array<[string, string, string, INodeTypeDescription, string]> = [
		["the webhook trigger's Options", CALL_PAGE, 'Options', webhook, 'Option'],
		["the webhook trigger's settings beside Options", CALL_PAGE, 'Options', webhook, 'Setting'],
		["the mid-call tool's fields", 'docs/triggers/mid-call-tool.md', 'Set-up', webhook, 'Field'],
		[
			"the polling trigger's settings",
			'docs/triggers/README.md',
			'Polling trigger',
			polling,
			'Setting',
		],
		[
			'the WhatsApp Message Status settings',
			'docs/triggers/whatsapp-message-status.md',
			'Settings',
			webhook,
			'Setting',
		],
	];

	it.each(cases)(
		'%s: every option named exists in the node, with the default the table gives',
		(_what, page, heading, description, first) => {
			const table = tables(section(read(page), heading)).find((t) => t.header[0] === first);
			expect(table).toBeDefined();
			const properties = allProperties(description);
			const wrong: string[] = [];
			const defaultColumn = table!.header.indexOf('Default');
			for (const row of table!.rows) {
				expect(row.names.length).toBeGreaterThan(0);
				for (const name of row.names) {
					const found = properties.filter((p) => p.displayName === name);
					if (found.length === 0) {
						wrong.push(`"${name}": no such option`);
						continue;
					}
					if (defaultColumn < 0) continue;
					const said = row.cells[defaultColumn];
					if (!found.some((p) => docDefaults(p).includes(said)))
						wrong.push(
							`"${name}": default "${said}", the node's ${found.map((p) => docDefaults(p)[0]).join(' or ')}`,
						);
				}
			}
			expect(wrong).toEqual([]);
		},
	);

	it("lists every option of the webhook trigger's Options collection", () => {
		const options = webhook.properties.find((p) => p.name === 'options')!;
		const names = ((options.options ?? []) as INodeProperties[]).map((o) => o.displayName);
		const table = tables(section(read(CALL_PAGE), 'Options')).find(
			(t) => t.header[0] === 'Option',
		)!;
		expect(table.rows.flatMap((r) => r.names).sort()).toEqual(names.sort());
	});

	it('reads defaults as the docs write them', () => {
		const verify = allProperties(webhook).find((p) => p.displayName === 'Verify Secret')!;
		expect(docDefaults(verify)).toEqual(['on']);
		const mode = allProperties(webhook).find(
			(p) => p.displayName === 'If the Assistant Already Has a Webhook',
		)!;
		expect(docDefaults(mode)).toEqual(['Take Over and Give Back']);
	});
});

describe('docs/operations.md against the node', () => {
	/** Resource → the operation names of its row, notes in brackets dropped, "Enable / Disable X" as two. */
	function rows(): Map<string, string[]> {
		return documentedOperations(read('docs/operations.md'));
	}

	it('has a row for every resource with exactly its operations', () => {
		const documented = Object.fromEntries([...rows()].map(([r, ops]) => [r, [...ops].sort()]));
		const offered = Object.fromEntries(
			[...nodeOperations()].map(([r, ops]) => [r, [...ops].sort()]),
		);
		expect(documented).toEqual(offered);
	});
});

/** The README's event table: event name → trigger column ("Webhook" or "Polling"). */
function readmeEvents(): Array<{ event: string; trigger: string }> {
	const table = tables(section(read('README.md'), 'Triggers')).find((t) => t.header[0] === 'Event');
	if (!table) throw new Error('README.md\'s "## Triggers" has no event table');
	return table.rows.map((r) => ({ event: r.names[0], trigger: r.cells[1] }));
}

describe("README's event table against the triggers", () => {
	const triggers: Array<[keyof typeof EVENTS_BEING_ADDED, INodeTypeDescription]> = [
		['Webhook', webhook],
		['Polling', polling],
	];

	it.each(triggers)('has a row for every event of the %s trigger', (trigger, description) => {
		const rows = readmeEvents()
			.filter((r) => r.trigger === trigger)
			.map((r) => r.event);
		expect(eventNames(description).filter((e) => !rows.includes(e))).toEqual([]);
	});

	it.each(triggers)('names only events the %s trigger offers', (trigger, description) => {
		const rows = readmeEvents()
			.filter((r) => r.trigger === trigger)
			.map((r) => r.event);
		expect(rows.filter((e) => !eventNames(description).includes(e))).toEqual([]);
	});

	it.each(triggers)('the %s trigger offers the events being added', (trigger, description) => {
		expect(EVENTS_BEING_ADDED[trigger].filter((e) => !eventNames(description).includes(e))).toEqual(
			[],
		);
	});

	it('has no row for a trigger other than the two', () => {
		expect(readmeEvents().filter((r) => !['Webhook', 'Polling'].includes(r.trigger))).toEqual([]);
	});
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
	return heading
		.trim()
		.replace(/`|\*\*|\[([^\]]*)\]\([^)]*\)/g, '$1')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a Markdown file: its headings' slugs, repeats numbered as GitHub does. */
function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const out = new Set<string>();
	for (const line of withoutCode(markdown).split('\n')) {
		const m = /^#{1,6}\s+(.+?)\s*#*$/.exec(line);
		if (!m) continue;
		const base = slug(m[1]);
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		out.add(n === 0 ? base : `${base}-${n}`);
	}
	return out;
}

function withoutCode(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The link targets of a Markdown file: inline links and images, and reference definitions. */
function links(markdown: string): string[] {
	const text = withoutCode(markdown);
	const inline = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
	const references = [...text.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]);
	return [...inline, ...references];
}

/** A link of `file` as a file of this repository and an anchor, or undefined for an outside link. */
function target(file: string, link: string): { path: string; anchor?: string } | undefined {
	let local: string;
	if (link.startsWith(`${REPO}/blob/main/`)) local = link.slice(`${REPO}/blob/main/`.length);
	else if (link.startsWith(`${RAW}/main/`)) local = link.slice(`${RAW}/main/`.length);
	else if (/^[a-z]+:/i.test(link)) return undefined;
	else if (link.startsWith('#')) local = `${file}${link}`;
	else local = relative(ROOT, normalize(join(ROOT, dirname(file), link)));
	const [path, anchor] = local.split('#');
	return { path: decodeURIComponent(path), anchor };
}

/** The Markdown files under a folder of the repository, subfolders included. */
function markdownUnder(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = `${folder}/${entry.name}`;
		if (entry.isDirectory()) return markdownUnder(path);
		return entry.name.endsWith('.md') ? [path] : [];
	});
}

const DOC_FILES = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...markdownUnder('docs')];

/** Pages for contributors, not users: the mechanics, and the reference of the service's API. */
const CONTRIBUTOR_PAGES = (file: string) =>
	file.startsWith('docs/internals/') || file === 'docs/api.md';

/** A user page stays short enough to read: split it, or move mechanics to docs/internals/. */
const MAX_USER_PAGE_BYTES = 15_000;

describe('size of the user pages', () => {
	const pages = markdownUnder('docs').filter((file) => !CONTRIBUTOR_PAGES(file));

	it('finds the user pages, the trigger guide among them', () => {
		expect(pages).toEqual(
			expect.arrayContaining(['docs/triggers/README.md', 'docs/troubleshooting.md']),
		);
	});

	it.each(pages)(`%s is at most ${MAX_USER_PAGE_BYTES} bytes`, (file) => {
		expect(Buffer.byteLength(read(file))).toBeLessThanOrEqual(MAX_USER_PAGE_BYTES);
	});
});

describe("the guide's event table", () => {
	it('has a row for every event of both triggers, each linking to a page of the guide', () => {
		const table = tables(section(read('docs/triggers/README.md'), 'Events')).find(
			(t) => t.header[0] === 'Event',
		)!;
		const rows = table.rows.map((r) => `${r.names[0]} (${r.cells[1]})`).sort();
		const events = [
			...eventNames(webhook).map((e) => `${e} (Webhook)`),
			...eventNames(polling).map((e) => `${e} (Polling)`),
		].sort();
		expect(rows).toEqual(events);
		for (const row of table.rows) {
			const page = /\]\(([^)#]+)/.exec(row.cells[3])?.[1];
			expect(page && existsSync(join(ROOT, 'docs/triggers', page))).toBeTruthy();
		}
	});
});

describe('links of the docs', () => {
	it.each(DOC_FILES)('%s: every link into this repository finds its file and heading', (file) => {
		const broken: string[] = [];
		for (const link of links(read(file))) {
			const to = target(file, link);
			if (!to) continue;
			if (!existsSync(join(ROOT, to.path))) {
				broken.push(`${link}: no file ${to.path}`);
				continue;
			}
			if (to.anchor && to.path.endsWith('.md') && !anchors(read(to.path)).has(to.anchor))
				broken.push(`${link}: no heading #${to.anchor} in ${to.path}`);
		}
		expect(broken).toEqual([]);
	});

	it('the "Docs" links n8n shows (node codex files, credentials) land on a heading', () => {
		const sources = [
			...readdirSync(join(ROOT, 'nodes'), { withFileTypes: true })
				.filter((d) => d.isDirectory())
				.flatMap((d) =>
					readdirSync(join(ROOT, 'nodes', d.name))
						.filter((f) => f.endsWith('.node.json'))
						.map((f) => `nodes/${d.name}/${f}`),
				),
			...readdirSync(join(ROOT, 'credentials')).map((f) => `credentials/${f}`),
		];
		const urls = sources.flatMap((file) =>
			[...read(file).matchAll(/https:\/\/github\.com\/[^\s"'`]+/g)].map((m) => m[0]),
		);
		expect(urls.length).toBeGreaterThanOrEqual(sources.length);
		const broken: string[] = [];
		for (const url of urls) {
			const [page, anchor] = url.split('#');
			const to =
				page === REPO || page === `${REPO}/` ? { path: 'README.md', anchor } : target('', url);
			if (!to) broken.push(`${url}: not this repository`);
			else if (!existsSync(join(ROOT, to.path))) broken.push(`${url}: no file ${to.path}`);
			else if (to.anchor && !anchors(read(to.path)).has(to.anchor))
				broken.push(`${url}: no heading #${to.anchor} in ${to.path}`);
		}
		expect(broken).toEqual([]);
	});

	it("README's links to this project's repository name package.json's repository", () => {
		const name = REPO.split('/').pop()!;
		const elsewhere = links(read('README.md')).filter(
			(l) =>
				/^https:\/\/(github\.com|raw\.githubusercontent\.com)\//.test(l) &&
				l.includes(`/${name}/`) &&
				!l.startsWith(`${REPO}/`) &&
				!l.startsWith(`${RAW}/`),
		);
		expect(elsewhere).toEqual([]);
		expect(
			links(read('README.md')).filter((l) => l.startsWith(`${REPO}/blob/main/`)).length,
		).toBeGreaterThan(5);
	});

	it('README links into the repository by absolute address only (they work on the npm page)', () => {
		const relativeLinks = links(read('README.md')).filter((l) => !/^[a-z]+:/i.test(l));
		expect(relativeLinks).toEqual([]);
	});

	it("turns headings into GitHub's anchors", () => {
		expect(slug('Mid-Call Tool Request: the workflow answers the assistant during a call')).toBe(
			'mid-call-tool-request-the-workflow-answers-the-assistant-during-a-call',
		);
		expect(slug('Assistant → Create / Update')).toBe('assistant--create--update');
		expect(slug('What survives what (webhook trigger)')).toBe('what-survives-what-webhook-trigger');
		expect([...anchors('## A\n## A\n```\n## B\n```\n')]).toEqual(['a', 'a-1']);
	});

	it("maps links to files: relative, anchors only, and the repository's absolute addresses", () => {
		expect(target('docs/trigger.md', '../README.md#trigger')).toEqual({
			path: 'README.md',
			anchor: 'trigger',
		});
		expect(target('docs/trigger.md', '#the-secret')).toEqual({
			path: 'docs/trigger.md',
			anchor: 'the-secret',
		});
		expect(target('README.md', `${REPO}/blob/main/docs/api.md`)).toEqual({
			path: 'docs/api.md',
			anchor: undefined,
		});
		expect(target('README.md', `${RAW}/main/docs/images/node-panel.jpg`)?.path).toBe(
			'docs/images/node-panel.jpg',
		);
		expect(target('README.md', 'https://docs.n8n.io/')).toBeUndefined();
	});
});
