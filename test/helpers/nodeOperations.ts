/**
 * The node's resources and operations as the editor shows them, read from its
 * description: what the docs checks (README, docs/api.md) compare with; and
 * the same read from a docs operations table.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { VoiceChatAssistant } from '../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';

/** Resource display name → its operations' display names. */
export function nodeOperations(): Map<string, string[]> {
	const properties = new VoiceChatAssistant().description.properties as INodeProperties[];
	const resource = properties.find((p) => p.name === 'resource')!;
	const out = new Map<string, string[]>();
	for (const r of resource.options as INodePropertyOptions[]) {
		const picker = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value),
		);
		out.set(
			r.name,
			((picker?.options ?? []) as INodePropertyOptions[]).map((o) => o.name),
		);
	}
	return out;
}

/**
 * Resource → the operation names of its row in a docs operations table
 * (`| **Resource** | A (notes) · B · Enable / Disable X |`), read from the
 * given Markdown text. Notes in brackets are dropped; "Enable / Disable X"
 * names two operations.
 */
export function documentedOperations(markdown: string): Map<string, string[]> {
	const rows = new Map<string, string[]>();
	for (const line of markdown.split('\n')) {
		const row = /^\|\s*\*\*(.+?)\*\*\s*\|(.*)\|\s*$/.exec(line);
		if (!row) continue;
		const names = row[2]
			.replace(/\s*\([^)]*\)/g, '')
			.split('·')
			.map((n) => n.replace(/\*\*/g, '').trim())
			.filter(Boolean)
			.flatMap((n) => {
				const pair = /^(\S+) \/ (\S+) (.+)$/.exec(n);
				return pair ? [`${pair[1]} ${pair[3]}`, `${pair[2]} ${pair[3]}`] : [n];
			});
		rows.set(row[1], names);
	}
	return rows;
}
