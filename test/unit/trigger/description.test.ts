import { readFileSync } from 'fs';
import { join } from 'path';
import type { INodeProperties } from 'n8n-workflow';

import { VoiceChatAssistantTrigger } from '../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';
import { searchAssistants } from '../../../nodes/VoiceChatAssistant/methods/listSearch';

const { description, methods } = new VoiceChatAssistantTrigger();

function property(name: string): INodeProperties {
	const found = description.properties.find((p) => p.name === name);
	if (!found) throw new Error(`no property ${name}`);
	return found;
}

describe('Voice Chat Assistant Trigger: description', () => {
	it('is a trigger with one POST webhook whose response mode follows the "Response Mode" parameter', () => {
		expect(description.group).toEqual(['trigger']);
		expect(description.inputs).toEqual([]);
		expect(description.webhooks).toEqual([
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: '={{$parameter["responseMode"]}}',
				// "Immediately": webhook()'s own response ({"received": true}), not the first item
				responseData: '={{$parameter["responseMode"] === "onReceived" ? "" : "firstEntryJson"}}',
				path: 'webhook',
			},
		]);
		expect(property('responseMode').default).toBe('onReceived');
		expect(property('responseMode').options?.map((o) => (o as { value: string }).value)).toEqual([
			'onReceived',
			'lastNode',
			'responseNode',
		]);
	});

	it('is not offered as an AI tool', () => {
		expect((description as { usableAsTool?: unknown }).usableAsTool).toBeUndefined();
	});

	it('defaults to the inbound event, a secret check, and uses the shared assistant picker', () => {
		expect(property('event').default).toBe('inboundCallCompleted');
		expect(property('verifySecret').default).toBe(true);
		expect(property('assistantId').type).toBe('resourceLocator');
		// the shared picker behind the credential guard (test/unit/methods/credentialGuard.test.ts)
		expect(typeof methods.listSearch.searchAssistants).toBe('function');
		expect(typeof searchAssistants).toBe('function');
	});

	it('says plainly that the service holds one URL per assistant and that it is given back, offers the three ownership choices, and warns when the secret check is off', () => {
		expect(String(property('oneUrlPerAssistantNotice').displayName)).toMatch(
			/one webhook URL per assistant/,
		);
		expect(String(property('oneUrlPerAssistantNotice').displayName)).toMatch(
			/gets back the URL it had before/,
		);
		const policy = property('existingWebhook');
		expect(policy.default).toBe('takeOverAndGiveBack');
		expect((policy.options as Array<{ value: string }>).map((o) => o.value)).toEqual([
			'takeOverAndGiveBack',
			'fail',
			'takeOver',
		]);
		// a test listener on an active workflow: the call events say the active workflow gets the call too
		const listener = property('testListenerNotice');
		expect(listener.displayOptions).toEqual({
			show: { event: ['inboundCallCompleted', 'callCompleted'] },
		});
		expect(String(listener.displayName)).toMatch(
			/starts the active workflow too, one to three minutes after it ends, with caught_up: true/,
		);
		const warning = property('verifySecretOffNotice');
		expect(warning.displayOptions).toEqual({ show: { verifySecret: [false] } });
		expect(String(warning.displayName)).toMatch(
			/a call starts this workflow only when the service lists it for a watched assistant \(one request per post\), but anyone who knows the webhook URL can start it with made-up chat data/,
		);
	});

	it('offers every call status of the service as a filter', () => {
		const options = property('options').options as INodeProperties[];
		const statuses = options
			.find((o) => o.name === 'callStatuses')
			?.options?.map((o) => (o as { value: string }).value);
		expect([...(statuses ?? [])].sort()).toEqual(
			[
				'initiated',
				'ringing',
				'busy',
				'in-progress',
				'ended',
				'completed',
				'ended_by_customer',
				'ended_by_assistant',
				'no-answer',
				'failed',
			].sort(),
		);
	});

	it('has a codex with categories and the aliases people search for', () => {
		const codex = JSON.parse(
			readFileSync(
				join(
					__dirname,
					'../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node.json',
				),
				'utf8',
			),
		);
		expect(codex.node).toBe('n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger');
		expect(codex.categories.length).toBeGreaterThan(0);
		expect(codex.alias).toEqual(
			expect.arrayContaining(['Famulor', 'call ended', 'AI phone call', 'voice agent']),
		);
	});
});
