/**
 * The "Mid-Call Tool Request" event answering a tool request: the secret
 * header, the parameters read (JSON, form or query, typed as declared) and
 * the answers the node writes itself.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import {
	createHookContext,
	createWebhookContext,
	activate,
	firstOutput,
} from '../../helpers/hookContext';
import { trigger } from '../../helpers/registeredTrigger';
import type { Delivery } from '../../helpers/registeredTrigger';
import { describeMidCallTool, params, secretOf, service } from './midCallToolFixtures';

describeMidCallTool('answering', () => {
	/** The tool registered for assistant 12 by an activation; `toolRequest` is the context of a request to it. */
	async function registered() {
		service([{ id: 12, tool_ids: [] }]);
		const staticData: IDataObject = {};
		await activate(createHookContext({ parameters: params(), staticData }).context);
		nock.cleanAll();
		const toolRequest = (request: Delivery) =>
			createWebhookContext({ parameters: params(), staticData, ...request });
		return { staticData, secret: secretOf(staticData), toolRequest };
	}

	it('gives one item with the parameters the AI sent (typed as declared), the tool, the other fields and the headers, without the secret', async () => {
		const { secret, toolRequest } = await registered();
		const { context, response, sent } = toolRequest({
			headers: {
				'content-type': 'application/json',
				'x-tool-secret': secret,
				'user-agent': 'svc/1',
			},
			body: { date: '2026-12-01', people: '2', urgent: 'true', call_id: 77 },
		});
		const result = await trigger.webhook.call(context);
		expect(response.ended).toBe(false);
		expect(result.noWebhookResponse).toBeUndefined();
		expect(firstOutput(result.workflowData)).toEqual([
			{
				tool: 'check_free_slot',
				tool_id: 50,
				parameters: { date: '2026-12-01', people: 2, urgent: true },
				other_fields: { call_id: 77 },
				source: 'body',
				headers: { 'content-type': 'application/json', 'user-agent': 'svc/1' },
				received_at: expect.any(String),
				// exact values: midCallToolItem.test.ts
				answer_by: expect.any(String),
				idempotency_key: expect.stringMatching(/^[0-9a-f]{64}$/),
			},
		]);
		expect(sent).toEqual([]);
	});

	it('reads a form body and, without a body, the query', async () => {
		const { secret, toolRequest } = await registered();
		const form = toolRequest({
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-tool-secret': secret },
			body: { date: '2026-12-02', people: '3' },
		});
		expect(
			firstOutput((await trigger.webhook.call(form.context)).workflowData)[0].parameters,
		).toEqual({ date: '2026-12-02', people: 3 });
		const query = toolRequest({
			headers: { 'x-tool-secret': secret },
			body: {},
			query: { date: '2026-12-03', urgent: 'no' },
		});
		const item = firstOutput((await trigger.webhook.call(query.context)).workflowData)[0];
		expect([item.parameters, item.source]).toEqual([
			{ date: '2026-12-03', urgent: false },
			'query',
		]);
	});

	it('answers 401 and starts nothing without the right secret', async () => {
		const { secret, toolRequest } = await registered();
		for (const headers of [
			{},
			{ 'x-tool-secret': '' },
			{ 'x-tool-secret': `${secret}x` },
			{ 'x-tool-secret': secret.slice(0, 31) },
		]) {
			const { context, response } = toolRequest({
				headers,
				body: { date: '2026-12-01' },
			});
			const result = await trigger.webhook.call(context);
			expect([response.statusCode, response.body]).toEqual([401, { message: 'Unauthorized' }]);
			expect(result).toEqual({ noWebhookResponse: true });
		}
		// the secret is not taken from the URL
		const { context, response } = toolRequest({
			headers: {},
			query: { secret },
			body: {},
		});
		await trigger.webhook.call(context);
		expect(response.statusCode).toBe(401);
	});

	it("without a registration (a stale save lost it) accepts only this node's own secret, with the form's tool", async () => {
		const { secret, toolRequest } = await registered();
		const request = (headers: IDataObject, workflowId?: string) =>
			toolRequest({
				staticData: {},
				headers,
				body: { date: '2025-03-01', people: '2' },
				workflowId,
			});
		const own = request({ 'x-tool-secret': secret });
		const result = await trigger.webhook.call(own.context);
		expect(own.response.statusCode).toBeUndefined();
		expect(firstOutput(result.workflowData)).toEqual([
			expect.objectContaining({
				tool: 'check_free_slot',
				parameters: { date: '2025-03-01', people: 2 },
			}),
		]);
		for (const [headers, workflowId] of [
			[{ 'x-tool-secret': 'A'.repeat(32) }, undefined],
			[{ 'x-tool-secret': '' }, undefined],
			[{}, undefined],
			// the same node id in another workflow derives another secret
			[{ 'x-tool-secret': secret }, 'wf-2'],
		] as Array<[IDataObject, string | undefined]>) {
			const other = request(headers, workflowId);
			await trigger.webhook.call(other.context);
			expect(other.response.statusCode).toBe(401);
		}
	});

	it('answers a body that is not a JSON object with a short JSON message the assistant can speak', async () => {
		const { secret, toolRequest } = await registered();
		const { context, response } = toolRequest({
			headers: { 'content-type': 'text/plain', 'x-tool-secret': secret },
			body: 'not json',
		});
		const result = await trigger.webhook.call(context);
		expect([response.statusCode, response.body]).toEqual([
			400,
			{ message: 'The tool request could not be read: its parameters must be a JSON object.' },
		]);
		expect(result.workflowData).toBeUndefined();
	});
});
