/**
 * Two promises of the trigger guide (docs/triggers/README.md, "Webhook trigger limits") and the
 * event pages, asserted on webhook():
 * - the trigger sets no size limit of its own on what is posted: a post far above n8n's own
 *   default limit on request bodies (16 MiB, which n8n applies before the trigger) reaches the
 *   workflow whole;
 * - a call, chat or WhatsApp status posted again is known as a repeat in the n8n process that
 *   received it only: another process, or the same n8n after a restart, starts it again. A
 *   process is a fresh copy of the node's modules (jest.isolateModulesAsync), with the static
 *   data n8n saved with the workflow.
 */
import type { IDataObject } from 'n8n-workflow';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';

import * as clockModule from '../../../nodes/VoiceChatAssistant/transport/clock';
import * as nodeModule from '../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';
import * as hookModule from '../../helpers/hookContext';
import type { WebhookRequestOptions } from '../../helpers/hookContext';
import { registeredTrigger } from '../../helpers/registeredTrigger';
import { URL_PARAM } from './catchUpFixtures';
import { EVENT, NOW, receipt, sign, signingCredential } from './whatsappPost';

/** n8n's default limit on request bodies (N8N_PAYLOAD_SIZE_MAX, 16 MiB); the posts below are above it. */
const N8N_DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;
const BIG = 'x'.repeat(N8N_DEFAULT_BODY_LIMIT + 4 * 1024 * 1024);

const calls = registeredTrigger({ secrets: { 12: URL_PARAM, 34: URL_PARAM } });

/** n8n's clock in every process: the WhatsApp receipt's `timestamp` is 2 s old. */
const fixedClock: clockModule.Clock = {
	now: () => NOW,
	sleep: async () => undefined,
	random: () => 0.5,
};

interface Modules {
	clock: typeof clockModule;
	hooks: typeof hookModule;
	node: typeof nodeModule;
}

/** What one post got: the status and body of the answer, and the items it started. */
interface Outcome {
	status?: number;
	body: unknown;
	items: IDataObject[];
}

type Deliver = (request: WebhookRequestOptions) => Promise<Outcome>;

const restores: Array<() => void> = [];

/** An n8n process running the trigger from `modules`. */
function processOf(modules: Modules): Deliver {
	restores.push(modules.clock.setClock(fixedClock));
	const trigger = new modules.node.VoiceChatAssistantTrigger();
	return async (request) => {
		const ctx = modules.hooks.createWebhookContext(request);
		const result = await trigger.webhook.call(ctx.context);
		modules.hooks.answerAsN8n(result, ctx.response);
		return {
			status: ctx.response.statusCode,
			body: ctx.response.body,
			items: modules.hooks.firstOutput(result.workflowData),
		};
	};
}

/** Another n8n process (or this one after a restart): the node's modules loaded afresh. */
async function newProcess(): Promise<Deliver> {
	let modules: Modules | undefined;
	await jest.isolateModulesAsync(async () => {
		modules = {
			clock: await import('../../../nodes/VoiceChatAssistant/transport/clock'),
			hooks: await import('../../helpers/hookContext'),
			node: await import('../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node'),
		};
	});
	return processOf(modules!);
}

let thisProcess: Deliver;

beforeEach(() => {
	forgetProcess();
	thisProcess = processOf({ clock: clockModule, hooks: hookModule, node: nodeModule });
});
afterEach(() => {
	while (restores.length) restores.pop()!();
});

/** A call delivery of Inbound Call Completed from assistant 34, with its secret. */
function callPost(fields: IDataObject = {}, staticData?: IDataObject): WebhookRequestOptions {
	const payload = {
		id: 9001,
		customer_phone: '+4915112345678',
		assistant_phone: '+4930123456',
		duration: 73,
		status: 'completed',
		transcript: 'bot: Hello\nhuman: Hi',
		created_at: '2026-11-26T07:58:00Z',
		finished_at: '2026-11-26T07:59:13Z',
		...fields,
	};
	return {
		parameters: calls.parameters(),
		staticData: staticData ?? callStaticData(),
		query: { assistant_id: '34', secret: URL_PARAM },
		body: payload,
	};
}

/** The registration, and a catch-up state with nothing to catch up (the zone known, watermarks now). */
function callStaticData(): IDataObject {
	const data = calls.staticData();
	data.catchUp = {
		zone: 60,
		assistants: { '12': { at: NOW, recent: [] }, '34': { at: NOW, recent: [] } },
	};
	return data;
}

/** A chat of Conversation Ended (Chat) from assistant 34. */
function chatPost(fields: IDataObject = {}, staticData?: IDataObject): WebhookRequestOptions {
	return {
		parameters: calls.parameters({ event: 'conversationEnded' }),
		staticData: staticData ?? calls.staticData('conversationEnded'),
		query: { assistant_id: '34', secret: URL_PARAM },
		body: {
			id: 77,
			conversation_id: '8f14e45f-ceea-4e7a-9c3b-1d2e3f4a5b6c',
			type: 'whatsapp',
			message_count: 2,
			status: 'ended',
			transcript: [{ role: 'user', content: 'Do you open on Sunday?' }],
			formatted_transcript: 'Customer: Do you open on Sunday?',
			ended_at: '2026-11-26T07:59:00.000Z',
			...fields,
		},
	};
}

/** A signed WhatsApp read receipt, as its exact bytes and n8n's parse of them. */
function statusPost(fields: IDataObject = {}, staticData?: IDataObject): WebhookRequestOptions {
	const raw = Buffer.from(JSON.stringify(receipt(fields)));
	return {
		parameters: { event: EVENT },
		otherCredentials: signingCredential(),
		staticData: staticData ?? {},
		rawBody: raw,
		body: JSON.parse(raw.toString('utf8')) as IDataObject,
		headers: { 'content-type': 'application/json', 'x-signature-256': sign(raw) },
	};
}

/** A call delivery with a content type n8n does not parse: the trigger reads the raw bytes. */
function callAsBytes(fields: IDataObject): WebhookRequestOptions {
	const post = callPost(fields);
	return {
		...post,
		body: {},
		rawBody: Buffer.from(JSON.stringify(post.body)),
		headers: { 'content-type': 'text/plain' },
	};
}

describe('Voice Chat Assistant Trigger: no size limit of its own on what is posted', () => {
	it.each([
		['a call (JSON, parsed by n8n)', () => callPost({ transcript: BIG }), 'transcript'],
		[
			'a call (raw bytes of another content type)',
			() => callAsBytes({ transcript: BIG }),
			'transcript',
		],
		['a chat', () => chatPost({ formatted_transcript: BIG }), 'formatted_transcript'],
		[
			'a WhatsApp status (signed bytes)',
			() => statusPost({ error_description: BIG }),
			'error_description',
		],
	])(
		"%s above n8n's default body limit of 16 MiB starts the workflow with the field whole",
		async (_what, post, field) => {
			const request = post();
			const bytes = Buffer.byteLength(request.rawBody ?? Buffer.from(JSON.stringify(request.body)));
			expect(bytes).toBeGreaterThan(N8N_DEFAULT_BODY_LIMIT);
			const outcome = await thisProcess(request);
			expect(outcome.status).toBe(200);
			expect(outcome.body).toEqual({ received: true });
			expect(outcome.items).toHaveLength(1);
			const value = outcome.items[0][field];
			expect(typeof value === 'string' && value.length).toBe(BIG.length);
			expect(value === BIG).toBe(true);
		},
	);
});

describe('Voice Chat Assistant Trigger: repeats are known per n8n process, forgotten at a restart', () => {
	it.each([
		['a call', callPost, callStaticData],
		['a chat', chatPost, () => calls.staticData('conversationEnded')],
		['a WhatsApp status', statusPost, () => ({})],
	])(
		'%s posted again: a repeat in the process that received it, started again by another process and after a restart',
		async (_what, post, initialData) => {
			// n8n's saved static data of the workflow, shared by its processes and kept over restarts
			const saved = initialData();
			const again = () => post({}, JSON.parse(JSON.stringify(saved)) as IDataObject);

			const first = await thisProcess(post({}, saved));
			expect(first.items).toHaveLength(1);
			const repeat = await thisProcess(post({}, saved));
			expect(repeat).toEqual({ status: 200, body: { received: true, duplicate: true }, items: [] });

			// another n8n process (a webhook process) does not know it: it starts the workflow again
			const other = await newProcess();
			const elsewhere = await other(again());
			expect(elsewhere.status).toBe(200);
			expect(elsewhere.items).toEqual(first.items);
			// the first process still knows it
			expect((await thisProcess(again())).body).toEqual({ received: true, duplicate: true });

			// n8n restarted: nothing of the memory is in what n8n saved, the repeat starts again
			const restarted = await newProcess();
			const afterRestart = await restarted(again());
			expect(afterRestart.items).toEqual(first.items);
			expect((await restarted(again())).body).toEqual({ received: true, duplicate: true });
		},
	);
});
