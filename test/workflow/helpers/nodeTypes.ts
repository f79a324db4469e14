/**
 * The node types a test workflow can use: our two nodes, loaded from their
 * TypeScript sources under the names n8n gives a community package's nodes,
 * and two small stand-ins for n8n-nodes-base (not installed here): a Manual
 * Trigger and an "Items" source that emits fixed items, binary files included.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	ITriggerFunctions,
	ITriggerResponse,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

import { VoiceChatAssistant } from '../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';
import { VoiceChatAssistantTrigger } from '../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';
import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';

export const TYPES = {
	manualTrigger: 'n8n-nodes-base.manualTrigger',
	items: 'test.items',
	action: 'n8n-nodes-voice-chat-assistant.voiceChatAssistant',
	trigger: 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger',
	pollingTrigger: 'n8n-nodes-voice-chat-assistant.voiceChatAssistantPollingTrigger',
} as const;

/** n8n's Manual Trigger as n8n runs it: a trigger whose manual function emits one empty item. */
class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		defaults: { name: 'When clicking "Execute workflow"' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

/** A file of an item, as the Items node's `files` parameter gives it. */
export interface ItemFile {
	/** File content: text (utf-8) or base64. */
	text?: string;
	base64?: string;
	fileName: string;
	mimeType: string;
}

/**
 * Emits the JSON items of its `items` parameter (a stand-in for a spreadsheet,
 * a CSV file or a Code node) and, from `files` (one entry per item, by binary
 * property), binary files stored through n8n's binary data service, as a
 * Read/Write Files from Disk node would.
 */
class Items implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Items',
		name: 'items',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Items', name: 'items', type: 'json', default: '[]' },
			{ displayName: 'Files', name: 'files', type: 'json', default: '[]' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const read = <T>(name: string): T[] => {
			const raw = this.getNodeParameter(name, 0) as string | T[];
			return typeof raw === 'string' ? (JSON.parse(raw) as T[]) : raw;
		};
		const rows = read<IDataObject>('items');
		const files = read<Record<string, ItemFile>>('files');
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < rows.length; i++) {
			const item: INodeExecutionData = { json: rows[i], pairedItem: { item: 0 } };
			for (const [property, file] of Object.entries(files[i] ?? {})) {
				const buffer =
					file.base64 !== undefined
						? Buffer.from(file.base64, 'base64')
						: Buffer.from(file.text ?? '', 'utf8');
				item.binary ??= {};
				item.binary[property] = await this.helpers.prepareBinaryData(
					buffer,
					file.fileName,
					file.mimeType,
				);
			}
			out.push(item);
		}
		return [out];
	}
}

const registry: Record<string, INodeType | IVersionedNodeType> = {
	[TYPES.manualTrigger]: new ManualTrigger(),
	[TYPES.items]: new Items(),
	[TYPES.action]: new VoiceChatAssistant(),
	[TYPES.trigger]: new VoiceChatAssistantTrigger(),
	[TYPES.pollingTrigger]: new VoiceChatAssistantPollingTrigger(),
};

export const nodeTypes: INodeTypes = {
	getByName(type: string) {
		const found = registry[type];
		if (!found) throw new Error(`Unknown node type "${type}" in a test workflow`);
		return found;
	},
	getByNameAndVersion(type: string, version?: number) {
		return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	},
	getKnownTypes: () => ({}),
};
