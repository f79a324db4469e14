/**
 * The item of a mid-call tool request carries what a workflow needs to make
 * a repeat harmless: `answer_by` (after it the assistant no longer listens)
 * and `idempotency_key` (the same for the same question). The service sends
 * no call id or request id with a tool request, so the key is derived from
 * the tool and its parameters as declared, plus `call_id` when a request
 * carries one.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import {
	PRODUCTION_URL,
	createWebhookContext,
	firstOutput,
	locator,
} from '../../helpers/hookContext';
import { trigger } from '../../helpers/registeredTrigger';

const SECRET = 'ToolSecretToolSecretToolSecret12';
const NOW = '2026-12-01T09:00:00.000Z';

const SCHEMA = [
	{ name: 'date', type: 'string', description: 'The date, as YYYY-MM-DD' },
	{ name: 'people', type: 'number', description: 'How many people come' },
	{ name: 'urgent', type: 'boolean', description: 'Whether it is urgent' },
];

function registration(toolId = 50, name = 'check_free_slot'): IDataObject {
	return {
		toolId,
		webhookUrl: PRODUCTION_URL,
		secret: SECRET,
		definition: { name, description: 'Checks a slot.', timeout: 8, schema: SCHEMA },
		assistants: [12],
		attached: [12],
	};
}

const params: IDataObject = {
	event: 'midCallTool',
	assistantId: locator(12),
	toolName: 'check_free_slot',
	toolTimeout: 8,
	responseMode: 'lastNode',
};

async function request(body: IDataObject, staticData: IDataObject = {}): Promise<IDataObject> {
	const { context } = createWebhookContext({
		parameters: params,
		staticData: { midCallTools: [registration()], ...staticData },
		headers: { 'content-type': 'application/json', 'x-tool-secret': SECRET },
		body,
	});
	const items = firstOutput((await trigger.webhook.call(context)).workflowData);
	expect(items).toHaveLength(1);
	return items[0];
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('Voice Chat Assistant Trigger: the mid-call tool item makes a repeat harmless', () => {
	beforeEach(() => {
		// only Date is faked: the item's times are exact
		jest.useFakeTimers({
			now: new Date(NOW),
			doNotFake: [
				'hrtime',
				'nextTick',
				'performance',
				'queueMicrotask',
				'setImmediate',
				'clearImmediate',
				'setInterval',
				'clearInterval',
				'setTimeout',
				'clearTimeout',
			],
		});
	});
	afterEach(() => jest.useRealTimers());

	it('the item: answer_by is received_at plus the tool timeout, idempotency_key the SHA-256 of tool and parameters', async () => {
		const item = await request({ date: '2026-12-01', people: '2', urgent: 'yes' });
		expect(item).toEqual({
			tool: 'check_free_slot',
			tool_id: 50,
			parameters: { date: '2026-12-01', people: 2, urgent: true },
			other_fields: {},
			source: 'body',
			headers: { 'content-type': 'application/json' },
			received_at: '2026-12-01T09:00:00.000Z',
			answer_by: '2026-12-01T09:00:08.000Z',
			idempotency_key: sha256(
				'["voice-chat-assistant mid-call tool v1",50,"check_free_slot",null,{"date":"2026-12-01","people":2,"urgent":true}]',
			),
		});
	});

	it('a repeat of the same question has the same key: another order, numbers as text, other fields, later', async () => {
		const first = await request({ date: '2026-12-01', people: 2, urgent: true });
		jest.setSystemTime(new Date('2026-12-01T09:00:12.000Z'));
		const repeat = await request({ urgent: 'true', people: '2', date: '2026-12-01', lang: 'de' });
		expect(repeat.idempotency_key).toBe(first.idempotency_key);
		expect([repeat.received_at, repeat.answer_by]).toEqual([
			'2026-12-01T09:00:12.000Z',
			'2026-12-01T09:00:20.000Z',
		]);
	});

	it('another question has another key: another value, a parameter left out, another tool, a call id', async () => {
		const keys = [
			(await request({ date: '2026-12-01', people: 2 })).idempotency_key,
			(await request({ date: '2026-12-02', people: 2 })).idempotency_key,
			(await request({ date: '2026-12-01' })).idempotency_key,
			(await request({ date: '2026-12-01', people: 2, call_id: 77 })).idempotency_key,
			(await request({ date: '2026-12-01', people: 2, call_id: '78' })).idempotency_key,
		];
		const { context } = createWebhookContext({
			parameters: params,
			staticData: { midCallTools: [registration(51)] },
			headers: { 'x-tool-secret': SECRET },
			body: { date: '2026-12-01', people: 2 },
		});
		keys.push(firstOutput((await trigger.webhook.call(context)).workflowData)[0].idempotency_key);
		expect(new Set(keys).size).toBe(keys.length);
		for (const key of keys) expect(key).toMatch(/^[0-9a-f]{64}$/);
		// the call id is part of the key as the request sends it
		expect(keys[3]).toBe(
			sha256(
				'["voice-chat-assistant mid-call tool v1",50,"check_free_slot","77",{"date":"2026-12-01","people":2}]',
			),
		);
	});
});
