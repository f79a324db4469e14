/**
 * The "Mid-Call Tool Request" event: registration of the tool (create,
 * update, recreate), adding it to the assistants' tool lists without touching
 * their other tools, removal, the secret header, reading the parameters and
 * the answers the node writes itself. A service with state behind nock; every
 * test asserts the exact requests.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../helpers/context';
import {
	PRODUCTION_URL,
	TEST_URL,
	createHookContext,
	createWebhookContext,
	activate,
	firstOutput,
	locator,
	requestLines,
} from '../../helpers/hookContext';
import {
	ASSISTANT_LIST as LIST,
	assistantService,
	trigger,
	triggerMethods as methods,
} from '../../helpers/registeredTrigger';
import type { Delivery } from '../../helpers/registeredTrigger';
import { installFakeClock } from '../../helpers/fakeClock';

const TOOLS = '/api/user/tools';
const SECRET = /^[A-Za-z0-9]{32}$/;

interface Tool {
	id: number;
	name: string;
	endpoint: string;
	headers: IDataObject[];
	[key: string]: unknown;
}

interface Assistant {
	id: number;
	tool_ids?: number[];
}

/** The service: the assistant endpoints and the tool routes. */
function service(assistants: Assistant[], tools: Tool[] = []) {
	let nextId = 50;
	const tool = (uri: string) => tools.find((t) => t.id === Number(uri.split('/').pop()));
	const missing = [404, { message: 'Tool not found' }] as const;
	assistantService(assistants)
		.get(TOOLS)
		.reply(() => [200, tools])
		.post(TOOLS)
		.reply((_uri, body) => {
			const created = { id: nextId++, ...(body as IDataObject) } as Tool;
			tools.push(created);
			return [201, { message: 'Tool created successfully', data: created }];
		})
		.get(/^\/api\/user\/tools\/\d+$/)
		.reply((uri) => (tool(uri) ? [200, tool(uri)] : missing))
		.put(/^\/api\/user\/tools\/\d+$/)
		.reply((uri, body) => {
			const t = tool(uri);
			if (!t) return missing;
			Object.assign(t, body as IDataObject);
			return [200, { message: 'Tool updated successfully', data: t }];
		})
		.delete(/^\/api\/user\/tools\/\d+$/)
		.reply((uri) => {
			const t = tool(uri);
			if (!t) return missing;
			tools.splice(tools.indexOf(t), 1);
			return [200, { message: 'Tool deleted successfully' }];
		});
	return { assistants, tools };
}

function params(extra: IDataObject = {}): IDataObject {
	return {
		event: 'midCallTool',
		assistantId: locator(12),
		additionalAssistants: {},
		toolName: 'check_free_slot',
		toolDescription:
			'Checks whether an appointment slot is free. Use it when the caller asks for a date.',
		toolParameters: {
			parameter: [
				{ name: 'date', type: 'string', description: 'The date, as YYYY-MM-DD' },
				{ name: 'people', type: 'number', description: 'How many people come' },
				{ name: 'urgent', type: 'boolean', description: 'Whether it is urgent' },
			],
		},
		toolTimeout: 8,
		responseMode: 'lastNode',
		...extra,
	};
}

const SCHEMA = [
	{ name: 'date', type: 'string', description: 'The date, as YYYY-MM-DD' },
	{ name: 'people', type: 'number', description: 'How many people come' },
	{ name: 'urgent', type: 'boolean', description: 'Whether it is urgent' },
];

function toolBody(secret: string, url = PRODUCTION_URL, extra: IDataObject = {}) {
	return JSON.stringify({
		name: 'check_free_slot',
		description:
			'Checks whether an appointment slot is free. Use it when the caller asks for a date.',
		endpoint: url,
		method: 'POST',
		timeout: 8,
		headers: [{ name: 'X-Tool-Secret', value: secret }],
		schema: SCHEMA,
		...extra,
	});
}

/** The stored registration of the tool that calls `url`. */
function reg(staticData: IDataObject, url = PRODUCTION_URL): IDataObject | undefined {
	return ((staticData.midCallTools as IDataObject[] | undefined) ?? []).find(
		(r) => r.webhookUrl === url,
	);
}

function secretOf(staticData: IDataObject, url = PRODUCTION_URL): string {
	return String(reg(staticData, url)?.secret);
}

describe('Voice Chat Assistant Trigger: Mid-Call Tool Request', () => {
	let clock: ReturnType<typeof installFakeClock>;
	beforeEach(() => {
		resetLimiters();
		clock = installFakeClock();
	});
	afterEach(() => {
		clock.restore();
		nock.cleanAll();
	});

	describe('the form', () => {
		const props = trigger.description.properties;
		const shownFor = (event: string) =>
			props.filter((p) => {
				const show = p.displayOptions?.show?.event as string[] | undefined;
				const hide = p.displayOptions?.hide?.event as string[] | undefined;
				return (!show || show.includes(event)) && !(hide && hide.includes(event));
			});

		it('offers the event in the Event picker and answers from the last node by default', () => {
			const event = props.find((p) => p.name === 'event')!;
			expect(event.options).toContainEqual(
				expect.objectContaining({
					name: 'Mid-Call Tool Request',
					value: 'midCallTool',
					action: 'On mid-call tool request',
				}),
			);
			const modes = shownFor('midCallTool').filter((p) => p.name === 'responseMode');
			expect(modes).toHaveLength(1);
			expect(modes[0].default).toBe('lastNode');
			expect(modes[0].options!.map((o) => (o as { value: string }).value)).toEqual([
				'lastNode',
				'responseNode',
			]);
			// the other events keep their one Response Mode, answering at once by default
			const others = shownFor('inboundCallCompleted').filter((p) => p.name === 'responseMode');
			expect(others.map((p) => p.default)).toEqual(['onReceived']);
		});

		it("shows the tool's fields, says that the workflow must answer within the timeout, and hides the webhook-only fields", () => {
			const names = shownFor('midCallTool').map((p) => p.name);
			expect(names).toEqual(
				expect.arrayContaining([
					'assistantId',
					'additionalAssistants',
					'toolName',
					'toolDescription',
					'toolParameters',
					'toolTimeout',
				]),
			);
			for (const hidden of [
				'existingWebhook',
				'verifySecret',
				'options',
				'oneUrlPerAssistantNotice',
			])
				expect(names).not.toContain(hidden);
			const notice = props.find((p) => p.name === 'midCallToolNotice')!;
			expect(String(notice.displayName)).toMatch(
				/must answer within the tool's timeout \(1 to 30 seconds\)/,
			);
			const timeout = props.find((p) => p.name === 'toolTimeout')!;
			expect([
				timeout.default,
				timeout.typeOptions?.minValue,
				timeout.typeOptions?.maxValue,
			]).toEqual([10, 1, 30]);
			for (const name of [
				'toolName',
				'toolDescription',
				'toolParameters',
				'toolTimeout',
				'midCallToolNotice',
			])
				expect(props.find((p) => p.name === name)!.displayOptions).toEqual({
					show: { event: ['midCallTool'] },
				});
		});
	});

	describe('registration', () => {
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

	describe('removal', () => {
		it('reads the tool lists first, takes only this tool out, keeps tools added meanwhile, then deletes the tool', async () => {
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
			expect(svc.assistants.map((a) => a.tool_ids)).toEqual([[1, 50], [50]]);
			svc.assistants[0].tool_ids = [1, 50, 9];
			const { context, sent } = createHookContext({ parameters: params(), staticData });
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(requestLines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`PUT /api/user/assistant/12 {"tool_ids":[1,9]}`,
				`PUT /api/user/assistant/34 {"tool_ids":[]}`,
				`DELETE ${TOOLS}/50`,
			]);
			expect(svc.assistants.map((a) => a.tool_ids)).toEqual([[1, 9], []]);
			expect(svc.tools).toEqual([]);
			expect(staticData).toEqual({});
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

	describe('without a registration in the static data', () => {
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

	describe("n8n's saving and other workflows", () => {
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

	describe('answering', () => {
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
});
