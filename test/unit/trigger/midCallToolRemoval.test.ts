/**
 * The "Mid-Call Tool Request" event at removal: only this tool taken out of
 * the assistants' tool lists, then deleted; the tool of "Listen for test
 * event" beside the workflow's own. A service with state behind nock; every
 * test asserts the exact requests.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { TEST_BASE_URL } from '../../helpers/context';
import {
	PRODUCTION_URL,
	TEST_URL,
	createHookContext,
	activate,
	locator,
	requestLines,
} from '../../helpers/hookContext';
import { ASSISTANT_LIST as LIST, triggerMethods as methods } from '../../helpers/registeredTrigger';
import {
	TOOLS,
	describeMidCallTool,
	params,
	reg,
	secretOf,
	service,
	toolBody,
} from './midCallToolFixtures';

/** The tool registered on assistant 12 (which has tool 1) and assistant 34 (none). */
async function activatedOnBoth() {
	const svc = service([
		{ id: 12, tool_ids: [1] },
		{ id: 34, tool_ids: [] },
	]);
	const staticData: IDataObject = {};
	await activate(
		createHookContext({
			parameters: params({
				additionalAssistants: { assistant: [{ assistantId: locator(34, 'id') }] },
			}),
			staticData,
		}).context,
	);
	return { svc, staticData };
}

describeMidCallTool('removal', () => {
	it('reads the tool lists first, takes only this tool out, keeps tools added meanwhile, then deletes the tool', async () => {
		const { svc, staticData } = await activatedOnBoth();
		expect(svc.assistants.map((a) => a.tool_ids)).toEqual([[1, 50], [50]]);
		svc.assistants[0].tool_ids = [1, 50, 9];
		const { context, sent } = createHookContext({ parameters: params(), staticData });
		await expect(methods.delete.call(context)).resolves.toBe(true);
		expect(requestLines(sent)).toEqual([
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/12 {"tool_ids":[1,9]}`,
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/34 {"tool_ids":[]}`,
			`DELETE ${TOOLS}/50`,
		]);
		expect(svc.assistants.map((a) => a.tool_ids)).toEqual([[1, 9], []]);
		expect(svc.tools).toEqual([]);
		expect(staticData).toEqual({});
	});

	it("each assistant's list is read right before its write: a tool another workflow adds to the second assistant while the first is written is kept", async () => {
		const { svc, staticData } = await activatedOnBoth();
		// another workflow adds its tool 77 to assistant 34 once assistant 12 has been written
		let written: number[] | undefined;
		Object.defineProperty(svc.assistants[1], 'tool_ids', {
			get: () => written ?? (String(svc.assistants[0].tool_ids) === '1' ? [50, 77] : [50]),
			set: (value: number[]) => {
				written = value;
			},
			enumerable: true,
		});
		const { context } = createHookContext({ parameters: params(), staticData });
		await expect(methods.delete.call(context)).resolves.toBe(true);
		expect(svc.assistants.map((a) => a.tool_ids)).toEqual([[1], [77]]);
	});

	it('an assistant dropped from the form loses the tool at the next activation', async () => {
		const svc = service([
			{ id: 12, tool_ids: [] },
			{ id: 34, tool_ids: [2] },
		]);
		const staticData: IDataObject = {};
		const both = params({
			additionalAssistants: { assistant: [{ assistantId: locator(34, 'id') }] },
		});
		await activate(createHookContext({ parameters: both, staticData }).context);
		const { context, sent } = createHookContext({ parameters: params(), staticData });
		await expect(activate(context)).resolves.toBe('created');
		expect(requestLines(sent)).toEqual([
			`PUT ${TOOLS}/50 ${toolBody(secretOf(staticData))}`,
			`GET ${LIST} page=1`,
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/34 {"tool_ids":[2]}`,
		]);
		expect(svc.assistants.map((a) => a.tool_ids)).toEqual([[50], [2]]);
	});

	it('a failed detach keeps the registration and the tool, and says so in the log', async () => {
		service([{ id: 12, tool_ids: [1] }]);
		const staticData: IDataObject = {};
		await activate(createHookContext({ parameters: params(), staticData }).context);
		nock.cleanAll();
		nock(TEST_BASE_URL)
			.get(LIST)
			.query(true)
			.reply(200, { data: [{ id: 12, tool_ids: [1, 50] }], last_page: 1 })
			.put('/api/user/assistant/12')
			.reply(422, { message: 'The given data was invalid.' });
		const { context, logs } = createHookContext({ parameters: params(), staticData });
		await expect(methods.delete.call(context)).resolves.toBe(false);
		expect(reg(staticData)!.attached).toEqual([12]);
		expect(logs).toContainEqual({
			level: 'warn',
			message: expect.stringContaining('could not remove mid-call tool 50 from assistant 12'),
		});
	});

	it('"Listen for test event" registers its own tool with the test URL and removes only that one', async () => {
		const svc = service([{ id: 12, tool_ids: [1] }]);
		const staticData: IDataObject = {};
		await activate(createHookContext({ parameters: params(), staticData }).context);
		const test = createHookContext({
			parameters: params(),
			staticData,
			webhookUrl: TEST_URL,
			mode: 'manual',
		});
		await expect(activate(test.context)).resolves.toBe('created');
		const testSecret = secretOf(staticData, TEST_URL);
		expect(testSecret).not.toBe(secretOf(staticData));
		expect(requestLines(test.sent)).toEqual([
			`GET ${TOOLS}`,
			`POST ${TOOLS} ${toolBody(testSecret, TEST_URL)}`,
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/12 {"tool_ids":[1,50,51]}`,
			`GET ${LIST} page=1`,
		]);
		await expect(methods.delete.call(test.context)).resolves.toBe(true);
		expect(svc.assistants[0].tool_ids).toEqual([1, 50]);
		expect(svc.tools.map((t) => [t.id, t.endpoint])).toEqual([[50, PRODUCTION_URL]]);
		expect(reg(staticData, TEST_URL)).toBeUndefined();
		expect(reg(staticData)).toBeDefined();
	});
});
