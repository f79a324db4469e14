/**
 * The node's resources and operations as the editor shows them, read from its
 * description: what the docs checks (README, docs/api.md) compare with.
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
