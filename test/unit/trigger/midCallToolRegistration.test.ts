/**
 * The "Mid-Call Tool Request" event at activation: the tool created, updated
 * or created again, added to the assistants' tool lists without touching their
 * other tools, a bad definition refused, and a failed activation undone. A
 * service with state behind nock; every test asserts the exact requests.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	PRODUCTION_URL,
	createHookContext,
	activate,
	locator,
	requestLines,
} from '../../helpers/hookContext';
import {
	ASSISTANT_LIST as LIST,
	assistantService,
	triggerMethods as methods,
} from '../../helpers/registeredTrigger';
import {
	SCHEMA,
	SECRET,
	TOOLS,
	describeMidCallTool,
	params,
	reg,
	secretOf,
	service,
	toolBody,
} from './midCallToolFixtures';
import type { Assistant } from './midCallToolFixtures';

describeMidCallTool('registration', () => {
	it('a tool created without an id in the answer: the activation fails, saying so and what to do; no assistant is changed', async () => {
		const assistants: Assistant[] = [{ id: 12, tool_ids: [1] }];
		assistantService(assistants)
			.get(TOOLS)
			.reply(200, [])
			.post(TOOLS)
			.reply(201, { message: 'Tool created successfully', data: { name: 'check_free_slot' } });
		const { context, sent } = createHookContext({ parameters: params() });
		const error = await activate(context).catch((e: Error & { description?: string }) => e);
		expect((error as Error).message).toBe('The service created the tool but gave no id');
		expect((error as { description?: string }).description).toBe(
			'Look for the tool in the service and delete it, then activate again.',
		);
		expect(requestLines(sent).filter((line) => line.startsWith('PUT'))).toEqual([]);
		expect(assistants[0].tool_ids).toEqual([1]);
	});

	it('creates the tool with the webhook URL and a secret header, then adds it to the assistant next to its other tools', async () => {
		const svc = service([{ id: 3 }, { id: 12, tool_ids: [1, 7] }]);
		const { context, staticData, sent } = createHookContext({ parameters: params() });
		await expect(activate(context)).resolves.toBe('created');
		const secret = secretOf(staticData);
		expect(secret).toMatch(SECRET);
		// no tool of this URL on the service yet: a new one
		expect(requestLines(sent)).toEqual([
			`GET ${TOOLS}`,
			`POST ${TOOLS} ${toolBody(secret)}`,
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/12 {"tool_ids":[1,7,50]}`,
			// read back: another workflow's update of the same list may have dropped it
			`GET ${LIST} page=1`,
		]);
		expect(svc.assistants[1].tool_ids).toEqual([1, 7, 50]);
		expect(staticData.midCallTools).toEqual([
			{
				toolId: 50,
				webhookUrl: PRODUCTION_URL,
				secret,
				definition: {
					name: 'check_free_slot',
					description:
						'Checks whether an appointment slot is free. Use it when the caller asks for a date.',
					timeout: 8,
					schema: SCHEMA,
				},
				assistants: [12],
				attached: [12],
			},
		]);
	});

	it('at the next start finds everything in place and sends nothing but reads', async () => {
		service([{ id: 12, tool_ids: [1] }]);
		const staticData: IDataObject = {};
		await activate(createHookContext({ parameters: params(), staticData }).context);
		const again = createHookContext({ parameters: params(), staticData });
		await expect(activate(again.context)).resolves.toBe('existed');
		expect(requestLines(again.sent)).toEqual([`GET ${TOOLS}/50`, `GET ${LIST} page=1`]);
	});

	it('updates the same tool (same secret) when its definition changed', async () => {
		const svc = service([{ id: 12, tool_ids: [1] }]);
		const staticData: IDataObject = {};
		await activate(createHookContext({ parameters: params(), staticData }).context);
		const secret = secretOf(staticData);
		const changed = createHookContext({ parameters: params({ toolTimeout: 20 }), staticData });
		await expect(activate(changed.context)).resolves.toBe('created');
		expect(requestLines(changed.sent)).toEqual([
			`PUT ${TOOLS}/50 ${toolBody(secret, PRODUCTION_URL, { timeout: 20 })}`,
			`GET ${LIST} page=1`,
		]);
		expect(svc.tools).toHaveLength(1);
		expect(svc.tools[0].timeout).toBe(20);
		expect(svc.assistants[0].tool_ids).toEqual([1, 50]);
	});

	it('creates the tool again when it was deleted on the service, and adds the new one', async () => {
		const svc = service([{ id: 12, tool_ids: [1] }]);
		const staticData: IDataObject = {};
		await activate(createHookContext({ parameters: params(), staticData }).context);
		const secret = secretOf(staticData);
		svc.tools.length = 0;
		svc.assistants[0].tool_ids = [1];
		const again = createHookContext({ parameters: params(), staticData });
		await expect(activate(again.context)).resolves.toBe('created');
		expect(requestLines(again.sent)).toEqual([
			`GET ${TOOLS}/50`,
			`PUT ${TOOLS}/50 ${toolBody(secret)}`,
			// another tool of this node's URL (one a later activation made) would be taken up
			`GET ${TOOLS}`,
			`POST ${TOOLS} ${toolBody(secret)}`,
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/12 {"tool_ids":[1,51]}`,
			`GET ${LIST} page=1`,
		]);
		expect(again.logs).toContainEqual({
			level: 'info',
			message: expect.stringContaining('mid-call tool 50 no longer exists'),
		});
		expect(reg(staticData)!.toolId).toBe(51);
	});

	it('refuses a bad definition naming the field, before any request', async () => {
		service([{ id: 12, tool_ids: [] }]);
		const cases: Array<[IDataObject, RegExp]> = [
			[
				{ toolName: 'Check-Slot' },
				/^Tool Name must be lowercase letters and underscores starting with a letter/,
			],
			[{ toolName: '1slot' }, /^Tool Name/],
			[
				{ toolDescription: 'x'.repeat(256) },
				/^Tool Description must have 1 to 255 characters, it has 256/,
			],
			[{ toolTimeout: 31 }, /^Timeout \(Seconds\) must be a whole number from 1 to 30, got 31/],
			[{ toolTimeout: 0 }, /^Timeout \(Seconds\)/],
			[
				{ toolParameters: { parameter: [{ name: '2day', type: 'string', description: 'd' }] } },
				/^Tool Parameters: parameter 1: Name/,
			],
			[
				{ toolParameters: { parameter: [{ name: 'day', type: 'date', description: 'd' }] } },
				/^Tool Parameters: parameter 1: Type must be string, number or boolean/,
			],
			[
				{
					toolParameters: {
						parameter: [
							{ name: 'a', type: 'string', description: 'd' },
							{ name: 'a', type: 'number', description: 'd' },
						],
					},
				},
				/^Tool Parameters: parameter 2: Name "a" is used twice/,
			],
			[
				{ toolParameters: { parameter: [{ name: 'a', type: 'string', description: '' }] } },
				/^Tool Parameters: parameter 1: Description/,
			],
		];
		for (const [extra, message] of cases) {
			const { context, sent } = createHookContext({ parameters: params(extra) });
			await expect(methods.create.call(context)).rejects.toThrow(message);
			expect(sent).toEqual([]);
		}
	});

	it("does not guess when the service does not show an assistant's tools: the tool is made, not added, and the log says so", async () => {
		const svc = service([{ id: 12 }]);
		const { context, staticData, sent, logs } = createHookContext({ parameters: params() });
		await methods.create.call(context);
		expect(requestLines(sent).map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
			`GET ${TOOLS}`,
			`POST ${TOOLS}`,
			`GET ${LIST}`,
		]);
		expect(svc.assistants[0].tool_ids).toBeUndefined();
		expect(reg(staticData)!.attached).toEqual([]);
		expect(logs).toContainEqual({
			level: 'warn',
			message: expect.stringMatching(
				/does not show the mid-call tools of assistant 12; tool 50 was not added to it \(add it by hand\)/,
			),
		});
	});

	it('an unknown assistant fails activation, naming it, and the tool made for it is deleted again', async () => {
		const svc = service([{ id: 12, tool_ids: [1] }]);
		const { context, staticData, sent } = createHookContext({
			parameters: params({
				additionalAssistants: { assistant: [{ assistantId: locator(99, 'id') }] },
			}),
		});
		await expect(methods.create.call(context)).rejects.toThrow('Assistant 99 not found');
		expect(requestLines(sent).slice(3)).toEqual([
			`PUT /api/user/assistant/12 {"tool_ids":[1,50]}`,
			`GET ${LIST} page=1`,
			`GET ${LIST} page=1`,
			`PUT /api/user/assistant/12 {"tool_ids":[1]}`,
			`DELETE ${TOOLS}/50`,
		]);
		expect(svc.tools).toEqual([]);
		expect(svc.assistants[0].tool_ids).toEqual([1]);
		expect(staticData.midCallTools).toBeUndefined();
	});
	it('a failed activation takes only its own tool out again: a tool another workflow added to the assistant meanwhile stays', async () => {
		// assistant 12's list: another workflow adds tool 9 right after this activation's write
		let ids = [1];
		let writes = 0;
		const shared = { id: 12 } as Assistant;
		Object.defineProperty(shared, 'tool_ids', {
			enumerable: true,
			get: () => ids,
			set: (value: number[]) => {
				ids = ++writes === 1 ? [...value, 9] : value;
			},
		});
		const svc = service([shared]);
		const { context } = createHookContext({
			parameters: params({
				additionalAssistants: { assistant: [{ assistantId: locator(99, 'id') }] },
			}),
		});
		await expect(methods.create.call(context)).rejects.toThrow('Assistant 99 not found');
		expect(svc.assistants[0].tool_ids).toEqual([1, 9]);
		expect(svc.tools).toEqual([]);
	});
});
