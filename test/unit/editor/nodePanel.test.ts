/**
 * What n8n's node panel makes of the node descriptions (the editor's rules,
 * n8n 2.x and 1.123.x alike; the browser layer checks the real editor):
 * - a node whose codex categories include "AI" is left out of search results
 *   in a workflow without AI nodes, and its top-level `mode` options become
 *   stray actions: no "AI" category;
 * - an action's name is the operation option's `action`, a trigger event's
 *   the event option's `action` (else the name with its punctuation dropped);
 * - the webhook trigger's events stand under the action node's app (type name
 *   + "Trigger"), which then shows the trigger's description.
 */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { VoiceChatAssistant } from '../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';
import { VoiceChatAssistantTrigger } from '../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';
import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { COST } from '../../../nodes/VoiceChatAssistant/descriptions';

/* eslint-disable @typescript-eslint/no-require-imports */
const codex = {
	action: require('../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node.json'),
	trigger: require('../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node.json'),
	polling: require('../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node.json'),
};

const action = new VoiceChatAssistant().description;
const trigger = new VoiceChatAssistantTrigger().description;
const polling = new VoiceChatAssistantPollingTrigger().description;

/** The actions the node panel lists: one per operation of each resource. */
function actions(description: INodeTypeDescription) {
	const resource = description.properties.find((p) => p.name === 'resource')!;
	return (resource.options as INodePropertyOptions[]).flatMap((r) => {
		const picker = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value),
		)!;
		return (picker.options as INodePropertyOptions[]).map((o) => ({
			resource: String(r.value),
			operation: String(o.value),
			...o,
		}));
	});
}

/** The events the node panel lists for a trigger: the options of its property labelled Event. */
function events(description: INodeTypeDescription) {
	const event = description.properties.find((p) =>
		['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()),
	);
	return (event?.options ?? []) as INodePropertyOptions[];
}

/** Plain English: no "account s", no lower-case acronyms, no "post call". */
function plainEnglishProblems(text: string): string[] {
	const problems: string[] = [];
	if (/\w s\b/.test(text)) problems.push('a lost apostrophe');
	if (/\b(api|sms|sip|ai|url|id|llm|whatsapp)\b/.test(text))
		problems.push('a lower-case acronym or name');
	if (
		/\b(post call|mid call|conversation ended webhook|text to speech|speech to text|sms capable)\b/i.test(
			text,
		)
	)
		problems.push('a missing hyphen');
	if (!/^[A-Z]/.test(text)) problems.push('no capital first letter');
	return problems;
}

describe("n8n's node panel", () => {
	it('finds the three nodes by search: no codex category "AI" (the panel hides those), "Famulor" among the aliases', () => {
		for (const c of Object.values(codex)) {
			expect(c.categories).not.toContain('AI');
			expect(c.alias).toContain('Famulor');
		}
	});

	it('lists exactly one action per operation (81), each with a name in plain English', () => {
		const list = actions(action);
		expect(list).toHaveLength(81);
		const bad = list
			.map((a) => ({
				a: `${a.resource}.${a.operation}: ${a.action}`,
				p: a.action ? plainEnglishProblems(a.action) : ['no action name'],
			}))
			.filter((x) => x.p.length);
		expect(bad).toEqual([]);
		expect(new Set(list.map((a) => a.action)).size).toBe(81);
		expect(list.find((a) => a.operation === 'getApiKeys')!.action).toBe(
			"Get the account's API keys",
		);
		expect(list.find((a) => a.operation === 'enablePostCallWebhook')!.action).toBe(
			"Enable an assistant's post-call webhook",
		);
	});

	it('names every trigger event in plain English, brackets kept', () => {
		const all = [...events(trigger), ...events(polling)];
		expect(events(trigger)).toHaveLength(5);
		expect(events(polling)).toHaveLength(7);
		for (const e of all) {
			expect(e.action).toMatch(/^On /);
			expect(plainEnglishProblems(e.action!)).toEqual([]);
		}
		expect(events(trigger).map((e) => e.action)).toContain('On conversation ended (chat)');
	});

	it("shows the action node's own description as the app's (the webhook trigger's events stand under it, with the trigger's description)", () => {
		expect(`${action.name}Trigger`).toBe(trigger.name);
		expect(trigger.description).toBe(action.description);
	});

	it('says what costs money or reaches a person both in the dropdown and in a notice of the form, in the same words', () => {
		const notices = (resource: string, operation: string) =>
			action.properties.filter(
				(p: INodeProperties) =>
					p.type === 'notice' &&
					p.displayOptions?.show?.resource?.includes(resource) &&
					p.displayOptions?.show?.operation?.includes(operation),
			);
		const costly = actions(action).filter((a) =>
			/costs money|reaches a person/i.test(a.description ?? ''),
		);
		expect(costly.map((a) => `${a.resource}.${a.operation}`).sort()).toEqual(
			[
				'call.make',
				'campaign.start',
				'conversation.generateAiReply',
				'conversation.sendMessage',
				'phoneNumber.purchase',
				'sms.send',
				'whatsapp.sendFreeform',
				'whatsapp.sendTemplate',
			].sort(),
		);
		for (const a of costly) {
			const sentence = Object.values(COST).find((c) => a.description!.includes(c));
			expect(sentence).toBeDefined();
			expect(
				notices(a.resource, a.operation)
					.map((n) => n.displayName)
					.join(' '),
			).toContain(sentence);
		}
	});

	it('shows the polling trigger as words on the canvas, and Inactivity Minutes only for Conversation Ended', () => {
		expect(polling.subtitle).not.toBe('={{$parameter["event"]}}');
		for (const e of events(polling)) expect(polling.subtitle).toContain(`"${e.value}": "`);
		const filters = polling.properties.find((p) => p.name === 'conversationFilters')!;
		const inactivity = (filters.options as INodeProperties[]).find(
			(o) => o.name === 'inactivityMinutes',
		)!;
		expect(inactivity.displayOptions).toEqual({ show: { '/event': ['conversationEnded'] } });
	});
});
