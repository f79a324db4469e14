/**
 * The n8n editor as a new user meets it, in a real headless Chromium against
 * the real n8n of the e2e layer (the line of N8N_E2E_LINE) with the packed
 * package, the simulator and its credential: the node panel's searches, the
 * app's details and its action and trigger lists, the first add of
 * Assistant → Create, a picker listing the simulator's items, the notices of
 * what spends money or reaches a person, an example executed from the
 * editor, and the webhook trigger's Mid-Call Tool Request form. Screenshots
 * of each step: .tmp/browser/<line>/ (README_IMAGES=<dir> also writes the
 * README's pictures there, see `npm run screenshots`).
 */
import * as fs from 'fs';
import * as path from 'path';

const {
	createN8nHome,
	credential,
	credentialRef,
	chain,
	rl,
	outputOf,
	runtimeModule,
	OWNER,
	ROOT,
	TRIGGER_TYPE,
	waitFor,
} = require('../harness/n8n');
const { startSimulator } = require('../simulator/server');
const { openEditor } = require('./editor');
const { copyExampleFiles, tryItCopy } = require('../../scripts/try-it-examples');

// scripts/test.sh sets VCA_TEST_DIST to a copy of dist: try-it (an e2e test beside this layer) builds again
const dist = (file: string) =>
	require(path.join(process.env.VCA_TEST_DIST || path.join(ROOT, 'dist'), file));
const { VoiceChatAssistant } = dist('nodes/VoiceChatAssistant/VoiceChatAssistant.node.js');
const { VoiceChatAssistantTrigger } = dist(
	'nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node.js',
);
const { VoiceChatAssistantPollingTrigger } = dist(
	'nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node.js',
);
const { COST } = dist('nodes/VoiceChatAssistant/descriptions/cost.js');
const { midCallToolProperties } = dist(
	'nodes/VoiceChatAssistantTrigger/midCallTool/midCallTool.js',
);

type Option = { name: string; value: string; action?: string; description?: string };
type Property = {
	name: string;
	displayName: string;
	options?: Option[];
	displayOptions?: { show?: Record<string, string[]> };
};

const action = new VoiceChatAssistant().description;
const trigger = new VoiceChatAssistantTrigger().description;
const polling = new VoiceChatAssistantPollingTrigger().description;
const LINE = process.env.N8N_E2E_LINE || 'v2';
const ARTIFACTS = path.join(ROOT, '.tmp/browser', LINE);
const IMAGES = process.env.README_IMAGES;

/** The operations' action names, as the node panel is expected to list them. */
const operations: Array<Option & { resource: string }> = (action.properties as Property[])
	.find((p) => p.name === 'resource')!
	.options!.flatMap((r) =>
		(action.properties as Property[])
			.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value))!
			.options!.map((o) => ({ ...o, resource: r.value })),
	);
const eventsOf = (description: { properties: Property[] }) =>
	description.properties.find((p) => p.name === 'event')!.options!.map((o) => o.action!);
/** The app name the panel shows for a trigger of its own ("... Trigger" without the word). */
const POLLING_APP = polling.displayName.replace(' Trigger', '');
const APP = action.displayName;

/** The simulator's credential, as the editor's workflows name it. */
const SIM_CREDENTIAL = { id: 'simulatorCred001', name: 'Voice Chat Assistant (simulator)' };
/** The active workflow whose trigger listens for a test event: the calls of the seeded outbound assistant. */
const LISTEN = {
	id: 'browserListen001',
	node: 'Call Ended',
	assistantId: 2,
	webhookId: '7d3c2b1a-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
};
/** The active workflow gets a call that reached only a test listener this long after the call ended, at most. */
const CAUGHT_UP_WITHIN_MS = 210_000;

describe(`the n8n editor (${LINE}) in a real browser`, () => {
	let sim: {
		url: string;
		close(): Promise<void>;
		state: { leads: Array<{ phone_number: string }> };
	};
	let home: any;
	let server: any;
	let editor: any;
	let exampleId: string;
	let balanceId: string;
	let flatted: { parse(text: string): any };
	/** The call the test listener got, and when it ended (set by the listening test, checked by the last one). */
	let listened: { callId: number; endedAt: number; production: string } | undefined;
	const listenAssistant = () =>
		(sim.state as any).assistants.find((a: { id: number }) => a.id === LISTEN.assistantId);

	beforeAll(async () => {
		sim = await startSimulator({ port: 0 });
		home = await createN8nHome();
		await home.importCredentials([
			credential('simulatorCred001', sim.url, { name: 'Voice Chat Assistant (simulator)' }),
		]);
		// the example a new user runs first (try-it's "where to click first"), with its CSV in the n8n home
		copyExampleFiles(home.folder);
		home.env.N8N_RESTRICT_FILE_ACCESS_TO = home.folder;
		const shipped = JSON.parse(
			fs.readFileSync(path.join(ROOT, 'examples/lead-import-from-csv.json'), 'utf8'),
		);
		const example = tryItCopy(shipped, {
			folder: home.folder,
			credential: { id: 'simulatorCred001', name: 'Voice Chat Assistant (simulator)' },
		});
		// the Balance Below example as a user imports it, with the simulator's credential chosen
		const balance = tryItCopy(
			JSON.parse(fs.readFileSync(path.join(ROOT, 'examples/balance-below-alert.json'), 'utf8')),
			{
				folder: home.folder,
				credential: { id: 'simulatorCred001', name: 'Voice Chat Assistant (simulator)' },
			},
		);
		// the calls of one assistant (Call Ended, answered immediately) into a NoOp, active from the start
		const listenNodes = [
			{
				id: 'listenTrigger',
				name: LISTEN.node,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				webhookId: LISTEN.webhookId,
				credentials: credentialRef(SIM_CREDENTIAL.id, SIM_CREDENTIAL.name),
				parameters: { event: 'callCompleted', assistantId: rl(LISTEN.assistantId) },
			},
			{
				id: 'listenNoOp',
				name: 'No Operation, do nothing',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				parameters: {},
			},
		];
		// one CLI boot for all three
		[exampleId, balanceId] = await home.importWorkflows([
			{ ...example, id: 'browserExample01' },
			{ ...balance, id: 'browserBalance01' },
			{
				id: LISTEN.id,
				name: 'Calls of the sales caller',
				nodes: listenNodes,
				connections: chain(listenNodes),
			},
		]);
		await home.activate(LISTEN.id);
		flatted = runtimeModule('flatted', home.runtime);
		server = await home.start();
		await home.rest(server); // 1.x: claims the instance for the owner
		editor = await openEditor({ baseUrl: server.baseUrl, owner: OWNER, dir: ARTIFACTS });
		await editor.login();
	}, 420_000);

	afterEach(async () => {
		await editor?.tidy();
	});

	afterAll(async () => {
		await editor?.close();
		await home?.cleanup();
		await sim?.close();
	});

	// first, so that the active workflow's heartbeat gets the call while the other tests run (the last test checks)
	it('on an active workflow, the call trigger\'s "Listen for test event" shows the next call in the editor, answered as a test listener\'s, and gives the production URL back', async () => {
		const before = editor.serverErrors.length;
		const atAssistant = () => String(listenAssistant().webhook_url ?? '');
		const production = await waitFor('the active workflow at the assistant', () =>
			atAssistant().includes(`/webhook/${LISTEN.webhookId}/webhook`) ? atAssistant() : false,
		);
		await editor.page.goto(`${server.baseUrl}/workflow/${LISTEN.id}`);
		const node = editor.page
			.locator('[data-test-id="canvas-node"]')
			.filter({ hasText: LISTEN.node });
		await node.waitFor();
		await node.dblclick();
		await editor.page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]').waitFor();
		expect(await editor.parameterValue('event')).toBe('Call Completed (Post-Call Webhook)');
		const notice = (trigger.properties as Property[]).find(
			(p) => p.name === 'testListenerNotice',
		)!.displayName;
		expect(notice).toMatch(/^Listening for a test event while this workflow is active/);
		expect(await editor.formText()).toContain(notice);

		await editor.listenForTestEvent();
		const testUrl = await waitFor(
			'the test URL at the assistant',
			() => atAssistant().includes('/webhook-test/') && atAssistant(),
			30_000,
		);
		expect(testUrl).toContain(`/webhook-test/${LISTEN.webhookId}/webhook`);
		await editor.shot('call-trigger-listening');

		// a call of the assistant ends: the service posts it to the test URL
		const endedAt = Date.now();
		const res = await fetch(`${sim.url}/__sim/calls/complete`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				assistant_id: LISTEN.assistantId,
				customer_phone: '+4915112345678',
				status: 'completed',
				type: 'outbound',
			}),
		});
		expect(res.status).toBe(200);
		const completed = (await res.json()) as {
			call: { id: number };
			deliveries: Array<{ kind: string; url: string; status: number; response: unknown }>;
		};
		const callId = completed.call.id;
		const testAnswer = { received: true, test_listener: true };
		expect(completed.deliveries.filter((d) => d.kind === 'post_call')).toEqual([
			expect.objectContaining({ url: testUrl, status: 200, response: testAnswer }),
		]);
		// the service keeps the answer with the call (alone, or with its status): the call reached a test run
		const stored = (sim.state as any).calls.find(
			(c: { id: number }) => c.id === callId,
		).webhook_response;
		expect((sim as any).config.webhookResponseShape === 'wrapped' ? stored.body : stored).toEqual(
			testAnswer,
		);

		// the editor shows the call as the trigger's output
		const output = editor.page.locator('[data-test-id="ndv"] [data-test-id="output-panel"]');
		await output
			.getByText(/^1 item$/)
			.first()
			.waitFor({ timeout: 30_000 })
			.catch(async (error: Error) => {
				await editor.shot('call-trigger-not-received');
				throw error;
			});
		const { rows } = await editor.outputTable();
		expect(rows).toEqual([
			expect.objectContaining({
				event: 'callCompleted',
				id: String(callId),
				customer_phone: '+4915112345678',
			}),
		]);
		await editor.shot('call-trigger-test-event');

		// one event ends the test listener: the active workflow has the assistant's URL again
		await waitFor('the production URL back at the assistant', () => atAssistant() === production);
		expect(listenAssistant().is_webhook_active).toBe(true);
		listened = { callId, endedAt, production };
		await editor.closeForm();
		expect(await editor.listening()).toBe(false);
		expect(editor.serverErrors.slice(before)).toEqual([]);
	});

	it('in a new workflow, "Voice Chat Assistant" and "Famulor" find the app and the polling trigger in the first step and in "On app event"', async () => {
		await editor.newWorkflow();
		for (const text of [APP, 'Famulor']) {
			expect(await editor.search(text)).toEqual(expect.arrayContaining([APP, POLLING_APP]));
		}
		await editor.shot('search-first-step');
		await editor.search('');
		await editor.choose('On app event');
		for (const text of [APP, 'Famulor']) {
			expect(await editor.search(text)).toEqual(expect.arrayContaining([APP, POLLING_APP]));
		}
		await editor.shot('search-on-app-event');
	});

	it("the app shows the action node's description and the webhook trigger's events; the polling trigger's events stand in its own entry", async () => {
		await editor.search(APP);
		await editor.choose(APP);
		const app = await editor.appDetails();
		expect(app.text).toContain(action.description);
		// one entry per event of the webhook trigger (Mid-Call Tool Request among them), in the node's order
		const events = eventsOf(trigger);
		expect(events).toContain('On mid-call tool request');
		expect(app.triggers).toBe(events.length);
		expect(app.names.slice(0, events.length)).toEqual(events);
		await editor.shot('app-triggers', { file: IMAGES && path.join(IMAGES, 'trigger-events.jpg') });
		await editor.closePanel();
		await editor.page.locator('[data-test-id="canvas-add-button"]').click();
		await editor.search(POLLING_APP);
		await editor.choose(POLLING_APP);
		const pollingApp = await editor.appDetails();
		expect(pollingApp.triggers).toBe(eventsOf(polling).length);
		expect(pollingApp.names).toEqual(eventsOf(polling));
		await editor.shot('polling-trigger-events');
	});

	it('after a first node, "What happens next?" and "Action in an app" find the app, and it lists one action per operation, in plain English', async () => {
		await editor.closePanel();
		await editor.page.locator('[data-test-id="canvas-add-button"]').click();
		await editor.addManualTrigger();
		await editor.openPanel();
		expect(await editor.panelText()).toContain('What happens next?');
		expect(await editor.search(APP)).toContain(APP);
		expect(await editor.search('Famulor')).toContain(APP);
		await editor.search('');
		await editor.choose('Action in an app');
		expect(await editor.search('Famulor')).toContain(APP);
		await editor.choose(APP);
		const app = await editor.appDetails();
		expect(app.actions).toBe(operations.length);
		expect(app.names.sort()).toEqual(operations.map((o) => o.action).sort());
		expect(app.text).not.toMatch(/\b(Pipeline|Multimodal|Dualplex)\n/);
		await editor.shot('app-actions', { file: IMAGES && path.join(IMAGES, 'node-panel.jpg') });
	});

	it("Assistant → Create, added for the first time, shows no error, and its Language picker lists the simulator's languages", async () => {
		const before = editor.serverErrors.length;
		await editor.closePanel();
		await editor.openPanel();
		await editor.addAction(APP, 'Create an assistant');
		// the Language picker asks the service when it is opened, with the credential the node has by then
		const languages = await editor.pickerItems('languageId');
		expect(languages).toEqual(expect.arrayContaining(['English (en)', 'German (de)']));
		const form = await editor.formText();
		expect(form).not.toContain('Error fetching options');
		expect(await editor.page.getByText('Error fetching options').count()).toBe(0);
		expect(editor.serverErrors.slice(before)).toEqual([]);
		await editor.shot('assistant-create', {
			file: IMAGES && path.join(IMAGES, 'assistant-form.jpg'),
		});
		await editor.closeForm();
	});

	it('every operation that spends money or reaches a person says so in its form, in the words of its dropdown description', async () => {
		const costly = operations.filter((o) =>
			Object.values(COST).some((c) => o.description?.includes(c as string)),
		);
		expect(costly).toHaveLength(8);
		for (const op of costly) {
			await editor.openPanel();
			await editor.addAction(APP, op.action);
			const sentence = (Object.values(COST) as string[]).find((c) => op.description!.includes(c))!;
			expect(await editor.formText()).toContain(sentence);
			if (op.value === 'make') await editor.shot('call-make-notice');
			await editor.closeForm();
		}
	});

	it('the lead import example, executed from the editor, outputs one item per CSV row', async () => {
		const [header, ...lines] = fs
			.readFileSync(path.join(ROOT, 'examples/leads.csv'), 'utf8')
			.trim()
			.split('\n');
		const rows = lines.length;
		const phoneColumn = header.split(',').indexOf('phone');
		const phones = lines.map((line) => line.split(',')[phoneColumn]);
		await editor.page.goto(`${server.baseUrl}/workflow/${exampleId}`);
		await editor.page.locator('[data-test-id="execute-workflow-button"]').click();
		// the canvas labels the connection out of each node with the items it passed on once the run has ended
		const createLead = editor.page
			.locator('[data-test-id="canvas-node"]')
			.filter({ hasText: 'Create Lead' });
		await createLead.waitFor();
		await editor.page
			.getByText(`${rows} items`)
			.first()
			.waitFor({ timeout: 60_000 })
			.catch(async (error: Error) => {
				await editor.shot('example-not-executed');
				throw error;
			});
		await createLead.dblclick();
		const output = editor.page.locator('[data-test-id="output-panel"]');
		await output
			.getByText(new RegExp(`^${rows} items?$`))
			.first()
			.waitFor();
		// one lead per row in the simulator, each once
		for (const phone of phones)
			expect(sim.state.leads.filter((l) => l.phone_number === phone)).toHaveLength(1);
		await editor.shot('example-executed', {
			file: IMAGES && path.join(IMAGES, 'executed-example.jpg'),
		});
		expect(editor.serverErrors).toEqual([]);
	});

	it('the Mid-Call Tool Request event, picked in the node panel, opens a form for the tool: name, description, parameters, timeout and assistants, with the notice that the workflow must answer within the timeout', async () => {
		const before = editor.serverErrors.length;
		await editor.newWorkflow();
		await editor.search(APP);
		await editor.choose(APP);
		const { names } = await editor.appDetails();
		expect(names).toContain('On mid-call tool request');
		await editor.page
			.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')
			.filter({ has: editor.page.getByText('On mid-call tool request', { exact: true }) })
			.first()
			.click();
		await editor.page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]').waitFor();
		const event = trigger.properties
			.find((p: Property) => p.name === 'event')!
			.options!.find((o: Option) => o.value === 'midCallTool')!;
		expect(await editor.parameterValue('event')).toBe(event.name);

		const fields = (midCallToolProperties as Array<Property & { type: string }>)
			.filter((p) => p.type !== 'notice')
			.map((p) => p.displayName);
		expect(fields).toEqual([
			'Tool Name',
			'Tool Description',
			'Tool Parameters',
			'Timeout (Seconds)',
			'Response Mode',
		]);
		const form = await editor.formText();
		for (const label of [...fields, 'Assistant', 'Additional Assistants'])
			expect(form).toContain(label);
		expect(form).toContain(
			"the workflow must answer within the tool's timeout (1 to 30 seconds), with one answer per request",
		);
		// what belongs to the other events is not shown for a tool
		expect(form).not.toContain('The service keeps one webhook URL per assistant');
		expect(form).not.toContain('Verify Secret');
		expect(await editor.parameterValue('toolTimeout')).toBe('10');
		expect(await editor.parameterValue('responseMode')).toBe('When Last Node Finishes');

		// a tool as a user describes it: its name, when to use it, one parameter
		await editor.fill('toolName', 'check_free_slot');
		await editor.fill(
			'toolDescription',
			'Checks whether an appointment slot is free. Use it when the caller asks for a date.',
		);
		await editor.clickInForm('Add Parameter', 'Type');
		await editor.fill('name', 'date');
		await editor.fill('description', 'The date the caller asks for, as YYYY-MM-DD');
		const assistants = await editor.pickerItems('assistantId');
		expect(assistants.length).toBeGreaterThan(0);
		await editor.pick('assistantId', assistants[0]);
		const filled = await editor.formText();
		for (const label of ['Name', 'Type', 'Description']) expect(filled).toContain(label);
		expect(await editor.parameterValue('type')).toBe('String');
		expect(editor.serverErrors.slice(before)).toEqual([]);
		// the whole form in the picture: a taller window for it
		await editor.page.setViewportSize({ width: 1400, height: 1180 });
		await editor.scrollFormToTop();
		await editor.shot('mid-call-tool-form', {
			file: IMAGES && path.join(IMAGES, 'mid-call-tool-form.jpg'),
		});
		await editor.page.setViewportSize({ width: 1400, height: 900 });
		await editor.closeForm();
	});

	it('the WhatsApp Message Status event asks for its signing credential and has no secret field of its own', async () => {
		const before = editor.serverErrors.length;
		await editor.newWorkflow();
		await editor.search(APP);
		await editor.choose(APP);
		await editor.page
			.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')
			.filter({ has: editor.page.getByText('On WhatsApp message status', { exact: true }) })
			.first()
			.click();
		await editor.page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]').waitFor();
		expect(await editor.parameterValue('event')).toBe('WhatsApp Message Status');
		const ndv = await editor.page.locator('[data-test-id="ndv"]').innerText();
		// the secret is chosen as a credential of its own type, never typed into the node
		expect(ndv).toContain('Voice Chat Assistant WhatsApp Signing API');
		expect(ndv).not.toContain('Signing Secret (Old Field)');
		expect(await editor.page.locator('[data-test-id="ndv"] input[type="password"]').count()).toBe(
			0,
		);
		expect(editor.serverErrors.slice(before)).toEqual([]);
		await editor.shot('whatsapp-status-form');
		await editor.closeForm();
	});

	it("the Balance Below example imports, and its trigger's Fetch Test Event shows the current balance", async () => {
		const before = editor.serverErrors.length;
		await editor.page.goto(`${server.baseUrl}/workflow/${balanceId}`);
		const node = editor.page
			.locator('[data-test-id="canvas-node"]')
			.filter({ hasText: 'Balance Below' });
		await node.waitFor();
		expect(
			await editor.page
				.locator('[data-test-id="canvas-node"]')
				.filter({ hasText: 'Slack Message' })
				.count(),
		).toBe(1);
		await node.dblclick();
		await editor.page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]').waitFor();
		expect(await editor.parameterValue('event')).toBe('Balance Below');
		expect(await editor.formText()).toContain('Threshold (USD)');
		await editor.page
			.locator('[data-test-id="ndv"] [data-test-id="node-execute-button"]:visible')
			.first()
			.click();
		const output = editor.page.locator('[data-test-id="ndv"] [data-test-id="output-panel"]');
		// the simulator's account has 25.5 USD: above the example's 10, shown all the same
		await output
			.getByText('25.5', { exact: true })
			.first()
			.waitFor({ timeout: 30_000 })
			.catch(async (error: Error) => {
				await editor.shot('balance-not-fetched');
				throw error;
			});
		const shown = await output.innerText();
		for (const field of ['balance', 'threshold', 'currency', 'USD']) expect(shown).toContain(field);
		expect(editor.serverErrors.slice(before)).toEqual([]);
		await editor.shot('balance-below-fetched');
		await editor.closeForm();
	});

	// last: the heartbeat of the active workflow starts the call one to three minutes after its end,
	// while the tests before this one run
	it('the call the test listener got starts the active workflow as well, once, caught up', async () => {
		expect(listened).toBeDefined();
		const { callId, endedAt, production } = listened!;
		// no test listener any more: the service sends the calls to the active workflow
		expect(await editor.listening()).toBe(false);
		expect(listenAssistant().webhook_url).toBe(production);
		/** The executions of the active workflow (not the editor's test runs) with their trigger's items. */
		const runs = () =>
			(
				home.queryDb(
					`select e.id as id, e.mode as mode, e.status as status, e.startedAt as startedAt, d.data as data from execution_entity e left join execution_data d on d.executionId = e.id where e.workflowId = '${LISTEN.id}' and e.mode != 'manual' order by e.id`,
				) as Array<{ id: number; mode: string; status: string; startedAt: string; data: string }>
			).map((r) => ({
				id: r.id,
				mode: r.mode,
				status: r.status,
				startedAt: Date.parse(`${String(r.startedAt).replace(' ', 'T')}Z`),
				items: (r.data ? outputOf(flatted.parse(String(r.data)), LISTEN.node).items : []) as Array<{
					json: Record<string, unknown>;
				}>,
			}));
		const ofCall = () => runs().filter((r) => r.items.some((i) => i.json.id === callId));
		const [run] = await waitFor(
			`an execution of the active workflow for call ${callId}`,
			() => {
				const found = ofCall();
				return found.some((r) => !['new', 'running'].includes(r.status)) && found;
			},
			// up to 3.5 minutes after the call's end, and some room for n8n to write the execution
			Math.max(endedAt + CAUGHT_UP_WITHIN_MS + 15_000 - Date.now(), 1_000),
		).catch((error: Error) => {
			throw new Error(
				`${error.message}; its executions: ${JSON.stringify(runs().map(({ items, ...r }) => ({ ...r, calls: items.map((i) => i.json.id) })))}`,
			);
		});
		expect(ofCall()).toHaveLength(1);
		expect(run.status).toBe('success');
		expect(run.items.map((i: { json: Record<string, unknown> }) => i.json)).toEqual([
			expect.objectContaining({ id: callId, caught_up: true, event: 'callCompleted' }),
		]);
		expect(run.startedAt - endedAt).toBeLessThanOrEqual(CAUGHT_UP_WITHIN_MS);
	}, 240_000);
});
