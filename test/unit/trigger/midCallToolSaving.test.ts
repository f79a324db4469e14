/**
 * The "Mid-Call Tool Request" event when n8n's saved static data is not what
 * the service holds: a removal or an activation without a registration finds
 * the tool by its URL; a publish while a tool request runs; another workflow
 * updating the same assistant. A service with state behind nock.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { TEST_BASE_URL } from '../../helpers/context';
import {
	PRODUCTION_URL,
	TEST_URL,
	createHookContext,
	createWebhookContext,
	activate,
	firstOutput,
	requestLines,
} from '../../helpers/hookContext';
import {
	ASSISTANT_LIST as LIST,
	trigger,
	triggerMethods as methods,
} from '../../helpers/registeredTrigger';
import {
	SECRET,
	TOOLS,
	describeMidCallTool,
	params,
	reg,
	secretOf,
	service,
	toolBody,
} from './midCallToolFixtures';

describeMidCallTool('without a registration in the static data', () => {
	it("removal finds the tool by this node's webhook URL (n8n ends a test listener with the saved workflow) and removes only it", async () => {
		const svc = service([{ id: 12, tool_ids: [1] }]);
		await activate(createHookContext({ parameters: params(), staticData: {} }).context);
		await activate(
			createHookContext({
				parameters: params(),
				staticData: {},
				webhookUrl: TEST_URL,
				mode: 'manual',
			}).context,
		);
		expect(svc.assistants[0].tool_ids).toEqual([1, 50, 51]);
		const ended = createHookContext({
			parameters: params(),
			staticData: {},
			webhookUrl: TEST_URL,
			mode: 'manual',
		});
		await expect(methods.delete.call(ended.context)).resolves.toBe(true);
		expect(requestLines(ended.sent)).toEqual([
			`GET ${TOOLS}`,
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/12 {"tool_ids":[1,50]}`,
			`DELETE ${TOOLS}/51`,
		]);
		expect(svc.tools.map((t) => t.id)).toEqual([50]);
	});

	it('removal with no tool of this URL on the service sends nothing else', async () => {
		service(
			[{ id: 12, tool_ids: [1] }],
			[{ id: 9, name: 'other', endpoint: 'https://crm.example.com/tool', headers: [] }],
		);
		const { context, sent } = createHookContext({ parameters: params(), staticData: {} });
		await expect(methods.delete.call(context)).resolves.toBe(true);
		expect(requestLines(sent)).toEqual([`GET ${TOOLS}`]);
	});

	it('activation takes up a tool of this URL left on the service instead of making a second one', async () => {
		const svc = service(
			[{ id: 12, tool_ids: [1] }],
			[{ id: 9, name: 'check_free_slot', endpoint: PRODUCTION_URL, headers: [] }],
		);
		const { context, staticData, sent } = createHookContext({
			parameters: params(),
			staticData: {},
		});
		await methods.create.call(context);
		const secret = secretOf(staticData);
		expect(requestLines(sent)).toEqual([
			`GET ${TOOLS}`,
			`PUT ${TOOLS}/9 ${toolBody(secret)}`,
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/12 {"tool_ids":[1,9]}`,
			`GET ${LIST} page=1`,
		]);
		expect(svc.tools).toHaveLength(1);
		expect(svc.tools[0].headers).toEqual([{ name: 'X-Tool-Secret', value: secret }]);
	});
});

describeMidCallTool("n8n's saving and other workflows", () => {
	const copy = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;

	it('a publish (delete + create) while a tool request runs: the request saves the old static data last, and the new tool is still answered', async () => {
		const svc = service([{ id: 12, tool_ids: [1] }]);
		const first = createHookContext({ parameters: params() });
		await activate(first.context);
		const slow = copy(first.staticData);
		const removal = createHookContext({ parameters: params(), staticData: copy(slow) });
		await methods.delete.call(removal.context);
		const added = createHookContext({ parameters: params(), staticData: removal.staticData });
		await activate(added.context);
		expect(svc.tools.map((t) => t.id)).toEqual([51]);
		const header = String(svc.tools[0].headers[0].value);
		// the slow request's save (the old registration, tool 50) wins
		const { context, response } = createWebhookContext({
			parameters: params(),
			staticData: slow,
			headers: { 'x-tool-secret': header },
			body: { date: '2025-03-01' },
		});
		const result = await trigger.webhook.call(context);
		expect(response.statusCode).toBeUndefined();
		expect(firstOutput(result.workflowData)).toHaveLength(1);
	});

	it('is never registered with an empty secret after a removal that found the tool on the service only', async () => {
		// the first detach fails: removal keeps what it found on the service (which shows no secret)
		nock(TEST_BASE_URL).put('/api/user/assistant/12').reply(422, { message: 'invalid' });
		const svc = service(
			[{ id: 12, tool_ids: [1, 9] }],
			[{ id: 9, name: 'check_free_slot', endpoint: PRODUCTION_URL, headers: [] }],
		);
		const staticData: IDataObject = {};
		const removal = createHookContext({ parameters: params(), staticData });
		await expect(methods.delete.call(removal.context)).resolves.toBe(false);
		expect(reg(staticData)).toMatchObject({ toolId: 9 });
		const again = createHookContext({ parameters: params(), staticData });
		await activate(again.context);
		const header = String(svc.tools[0].headers[0].value);
		expect(header).toMatch(SECRET);
		expect(secretOf(staticData)).toBe(header);
	});

	it("adds the tool again when another workflow's update of the same assistant dropped it (read back after writing)", async () => {
		const assistants = [{ id: 12, tool_ids: [1] as number[] }];
		// another workflow read [1] before this update and writes [1, 77] right after it
		nock(TEST_BASE_URL)
			.put('/api/user/assistant/12')
			.reply(() => {
				assistants[0].tool_ids = [1, 77];
				return [200, { message: 'Assistant updated successfully', data: { id: 12 } }];
			});
		service(assistants);
		const { context, sent, logs } = createHookContext({ parameters: params() });
		await activate(context);
		expect(requestLines(sent).slice(2)).toEqual([
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/12 {"tool_ids":[1,50]}`,
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/12 {"tool_ids":[1,77,50]}`,
			`GET ${LIST} page=1`,
		]);
		expect(assistants[0].tool_ids).toEqual([1, 77, 50]);
		expect(logs).toContainEqual({
			level: 'info',
			message: expect.stringContaining('dropped mid-call tool 50; adding it again'),
		});
	});
});
