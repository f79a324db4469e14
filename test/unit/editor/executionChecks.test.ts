/**
 * What n8n checks in the nodes' parameters before every execution. n8n 2.x runs
 * each regular expression a node description gives it (a locator mode's format
 * rule, a `regex` display condition, a regex `extractValue`) in a sandbox that
 * fails the whole execution when it takes over 250 ms, which a stalled, busy
 * machine makes a tiny regex do. The nodes give it none: they check IDs when
 * they run, naming the field.
 */
import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers, resetSafeRegexEngine, setSafeRegexEngine } from 'n8n-workflow';

import { VoiceChatAssistant } from '../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';
import { VoiceChatAssistantTrigger } from '../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';
import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';

const descriptions: Array<[string, INodeTypeDescription]> = [
	['action node', new VoiceChatAssistant().description],
	['webhook trigger', new VoiceChatAssistantTrigger().description],
	['polling trigger', new VoiceChatAssistantPollingTrigger().description],
];

/** Every regular expression a description hands to n8n, by the parameter's path. */
function regexesOf(properties: unknown, path = ''): string[] {
	if (!Array.isArray(properties)) return [];
	return (properties as INodeProperties[]).flatMap((property) => {
		const here = `${path}${property.name}`;
		const found: string[] = [];
		for (const mode of property.modes ?? []) {
			for (const rule of mode.validation ?? []) {
				if (typeof rule === 'object' && rule.type === 'regex') found.push(`${here} (${mode.name})`);
			}
			if (mode.extractValue?.type === 'regex') found.push(`${here} (${mode.name} extractValue)`);
		}
		if (JSON.stringify(property.displayOptions ?? {}).includes('"regex"')) {
			found.push(`${here} (displayOptions)`);
		}
		const nested = property.options as unknown[] | undefined;
		return [
			...found,
			...regexesOf(nested, `${here}.`),
			...(nested ?? []).flatMap((option) =>
				regexesOf((option as { values?: unknown }).values, `${here}.`),
			),
		];
	});
}

describe('the checks n8n makes before an execution', () => {
	it.each(descriptions)('the %s gives n8n no regular expression to run', (_name, description) => {
		expect(regexesOf(description.properties)).toEqual([]);
	});

	it("a trigger watching assistants typed by ID passes n8n's parameter check without a regex", () => {
		const calls: string[] = [];
		const record = (name: string) => () => {
			calls.push(name);
			throw new Error('Regular expression execution timed out');
		};
		setSafeRegexEngine({
			exec: record('exec'),
			test: record('test'),
			replace: record('replace'),
			matchAll: record('matchAll'),
			split: record('split'),
		});
		try {
			const description = new VoiceChatAssistantTrigger().description;
			const node: INode = {
				id: 'trigger',
				name: 'Trigger',
				type: 'voiceChatAssistantTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					event: 'inboundCallCompleted',
					assistantId: { __rl: true, mode: 'id', value: '42' },
					additionalAssistants: {
						assistant: [{ assistantId: { __rl: true, mode: 'id', value: '43' } }],
					},
				},
			};
			const issues = NodeHelpers.getNodeParametersIssues(description.properties, node, description);
			expect({ issues, calls }).toEqual({ issues: null, calls: [] });
		} finally {
			resetSafeRegexEngine();
		}
	});
});
