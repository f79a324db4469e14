/**
 * The trigger's webhook lifecycle (checkExists / create / delete) against a
 * service that keeps each assistant's webhook settings (nock, with state), and
 * other triggers' URLs that answer the liveness probe or not. Every test
 * asserts the exact requests sent.
 */
import nock from 'nock';
import type { IDataObject, IHookFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { VoiceChatAssistantTrigger } from '../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import {
	PRODUCTION_URL,
	TEST_URL,
	createHookContext,
	createWebhookContext,
	locator,
} from '../../helpers/hookContext';
import type { HookContextOptions } from '../../helpers/hookContext';
import { installFakeClock } from '../../helpers/fakeClock';

const trigger = new VoiceChatAssistantTrigger();
const methods = trigger.webhookMethods.default;

const SECRET = /^[A-Za-z0-9]{32}$/;
const LIST = '/api/user/assistants/get';
const ENABLE_INBOUND = '/api/user/assistants/enable-inbound-webhook';
const DISABLE_INBOUND = '/api/user/assistants/disable-inbound-webhook';
const DISABLE_POST_CALL = '/api/user/assistants/disable-webhook';
const ENABLE_CHAT = '/api/user/assistants/enable-conversation-ended-webhook';
const DISABLE_CHAT = '/api/user/assistants/disable-conversation-ended-webhook';
const CRM = 'https://crm.example.com/hook?token=crm-token';
/** Another workflow's trigger on this n8n (its URL carries assistant_id and a 32-character secret). */
const OTHER =
	'https://n8n.example.com/webhook/aaaa-other/webhook?assistant_id=12&secret=OtherSecretOtherSecretOtherSecre';
/** A URL shaped like a trigger's, on another host: never probed. */
const OFF_HOST =
	'https://n8n.other.example.com/webhook/aaaa-other/webhook?assistant_id=12&secret=OtherSecretOtherSecretOtherSecre';
const N8N_HOSTS = ['https://n8n.example.com', 'https://n8n.other.example.com'];

interface Assistant {
	id: number;
	name?: string;
	webhook_url: string | null;
	is_webhook_active: boolean | number;
	send_webhook_only_on_completed: boolean | number;
	include_recording_in_webhook: boolean | number;
	inbound_webhook_url: string | null;
	conversation_ended_webhook_url?: string | null;
}

function assistant(id: number, extra: Partial<Assistant> = {}): Assistant {
	return {
		id,
		name: `Assistant ${id}`,
		webhook_url: null,
		is_webhook_active: false,
		send_webhook_only_on_completed: true,
		include_recording_in_webhook: true,
		inbound_webhook_url: null,
		conversation_ended_webhook_url: null,
		...extra,
	};
}

/**
 * The service: the paginated assistant list (2 per page, so paging is used),
 * the assistant update and the webhook switches, all changing `assistants`.
 * `live` maps a trigger URL to what that trigger answers a probe with
 * (its give-back list); any other n8n URL answers 404 as n8n does for a
 * deactivated workflow.
 */
function service(assistants: Assistant[], live: Map<string, IDataObject[]> = new Map()) {
	const byId = (id: unknown) => assistants.find((a) => a.id === Number(id));
	const notFound = [404, { message: 'Assistant not found' }] as const;
	nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
		.persist()
		.get(LIST)
		.query(true)
		.reply((uri) => {
			const page = Number(new URL(uri, TEST_BASE_URL).searchParams.get('page') ?? 1);
			const sorted = [...assistants].sort((a, b) => a.id - b.id);
			const last = Math.max(1, Math.ceil(sorted.length / 2));
			return [
				200,
				{
					current_page: page,
					data: sorted.slice((page - 1) * 2, page * 2),
					last_page: last,
					next_page_url: page < last ? `${TEST_BASE_URL}${LIST}?page=${page + 1}` : null,
				},
			];
		})
		.put(/^\/api\/user\/assistant\/\d+$/)
		.reply((uri, body) => {
			const a = byId(uri.split('/').pop());
			if (!a) return notFound;
			Object.assign(a, body as IDataObject);
			return [200, { message: 'Assistant updated successfully', data: { id: a.id } }];
		})
		.post(ENABLE_INBOUND)
		.reply((_uri, body) => {
			const a = byId((body as IDataObject).assistant_id);
			if (!a) return notFound;
			a.inbound_webhook_url = String((body as IDataObject).webhook_url);
			return [200, { message: 'Inbound webhook enabled successfully', data: [] }];
		})
		.post(DISABLE_INBOUND)
		.reply((_uri, body) => {
			const a = byId((body as IDataObject).assistant_id);
			if (!a) return notFound;
			a.inbound_webhook_url = null;
			return [200, { message: 'Inbound webhook disabled successfully', data: [] }];
		})
		.post(ENABLE_CHAT)
		.reply((_uri, body) => {
			const a = byId((body as IDataObject).assistant_id);
			if (!a) return notFound;
			a.conversation_ended_webhook_url = String((body as IDataObject).webhook_url);
			return [200, { message: 'Conversation ended webhook enabled successfully', data: [] }];
		})
		.post(DISABLE_CHAT)
		.reply((_uri, body) => {
			const a = byId((body as IDataObject).assistant_id);
			if (!a) return notFound;
			a.conversation_ended_webhook_url = null;
			return [200, { message: 'Conversation ended webhook disabled successfully', data: [] }];
		})
		.post(DISABLE_POST_CALL)
		.reply((_uri, body) => {
			const a = byId((body as IDataObject).assistant_id);
			if (!a) return notFound;
			a.is_webhook_active = false;
			return [200, { message: 'Webhook disabled successfully', data: [] }];
		});
	for (const host of N8N_HOSTS) {
		nock(host)
			.persist()
			.post(/.*/)
			.reply(function (uri) {
				if (this.req.headers['x-voice-chat-assistant-probe'] !== '1') return [500, 'not a probe'];
				const giveBack = live.get(`${host}${uri}`);
				return giveBack
					? [200, { voiceChatAssistantTrigger: 'live', giveBack }]
					: [404, { message: 'not registered' }];
			});
	}
	return { assistants, live };
}

/** The requests as lines: method, path (or probed URL) and body. */
function lines(sent: IHttpRequestOptions[]): string[] {
	return sent.map((r) => {
		if (r.headers?.['x-voice-chat-assistant-probe']) return `PROBE ${r.url}`;
		const qs = r.qs ? ` page=${(r.qs as IDataObject).page}` : '';
		const body = r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`;
		return `${r.method} ${r.url}${qs}${body}`;
	});
}

function inboundParams(extra: IDataObject = {}): IDataObject {
	return {
		event: 'inboundCallCompleted',
		assistantId: locator(12),
		additionalAssistants: {},
		existingWebhook: 'takeOverAndGiveBack',
		responseMode: 'onReceived',
		verifySecret: true,
		options: {},
		...extra,
	};
}

function postCallParams(extra: IDataObject = {}): IDataObject {
	return inboundParams({ event: 'callCompleted', ...extra });
}

/** What n8n does when it activates a workflow (and at every start): checkExists, then create if needed. */
async function activate(ctx: IHookFunctions): Promise<'created' | 'existed'> {
	if (await methods.checkExists.call(ctx)) return 'existed';
	await methods.create.call(ctx);
	return 'created';
}

function hook(options: HookContextOptions) {
	return createHookContext(options);
}

function registration(staticData: IDataObject): IDataObject {
	return staticData.registration as IDataObject;
}

/** The secret registered for one assistant. */
function secretOf(staticData: IDataObject, id = 12): string {
	const entry = (registration(staticData).assistants as IDataObject[]).find((a) => a.id === id);
	return String(entry?.secret);
}

function ourUrl(staticData: IDataObject, id = 12, base = PRODUCTION_URL): string {
	return `${base}?assistant_id=${id}&secret=${secretOf(staticData, id)}`;
}

describe('Voice Chat Assistant Trigger: webhook ownership lifecycle', () => {
	let clock: ReturnType<typeof installFakeClock>;
	beforeEach(() => {
		resetLimiters();
		clock = installFakeClock();
	});
	afterEach(() => {
		clock.restore();
		nock.cleanAll();
	});

	describe('Conversation Ended (chat)', () => {
		it('takes the chat webhook over with its own switch and gives the previous URL back on removal', async () => {
			const svc = service([assistant(12, { conversation_ended_webhook_url: CRM })]);
			const { context, staticData, sent } = hook({
				parameters: inboundParams({ event: 'conversationEnded' }),
			});
			await expect(activate(context)).resolves.toBe('created');
			const secret = secretOf(staticData);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`POST ${ENABLE_CHAT} {"assistant_id":12,"webhook_url":"${PRODUCTION_URL}?assistant_id=12&secret=${secret}"}`,
			]);
			expect(svc.assistants[0].conversation_ended_webhook_url).toBe(ourUrl(staticData));
			expect(svc.assistants[0].inbound_webhook_url).toBeNull();
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(svc.assistants[0].conversation_ended_webhook_url).toBe(CRM);
		});

		it('without a previous URL, removal switches the chat webhook off', async () => {
			const svc = service([assistant(12)]);
			const { context, sent } = hook({ parameters: inboundParams({ event: 'conversationEnded' }) });
			await activate(context);
			sent.length = 0;
			await methods.delete.call(context);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`POST ${DISABLE_CHAT} {"assistant_id":12}`,
			]);
			expect(svc.assistants[0].conversation_ended_webhook_url).toBeNull();
		});
	});

	describe('create', () => {
		it('reads the assistant first, registers the URL with assistant_id and a secret of its own per assistant, and saves "nothing" as what to give back', async () => {
			const svc = service([assistant(1), assistant(2), assistant(12), assistant(34)]);
			const { context, staticData, sent } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator(34, 'id') }] },
				}),
			});
			await expect(activate(context)).resolves.toBe('created');
			const [secret12, secret34] = [secretOf(staticData, 12), secretOf(staticData, 34)];
			expect(secret12).toMatch(SECRET);
			expect(secret34).toMatch(SECRET);
			expect(secret34).not.toBe(secret12);
			// checkExists asks nothing without a registration; create pages until both assistants are found
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`GET ${LIST} page=2`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${PRODUCTION_URL}?assistant_id=12&secret=${secret12}"}`,
				`POST ${ENABLE_INBOUND} {"assistant_id":34,"webhook_url":"${PRODUCTION_URL}?assistant_id=34&secret=${secret34}"}`,
			]);
			expect(staticData).toEqual({
				registration: {
					event: 'inboundCallCompleted',
					webhookUrl: PRODUCTION_URL,
					assistants: [
						{
							id: 12,
							url: ourUrl(staticData, 12),
							secret: secret12,
							giveBack: [{ url: null, active: false }],
						},
						{
							id: 34,
							url: ourUrl(staticData, 34),
							secret: secret34,
							giveBack: [{ url: null, active: false }],
						},
					],
				},
				// calls that end from activation on are caught up after a downtime (catchUp.ts)
				catchUp: {
					assistants: { 12: { at: clock.now(), recent: [] }, 34: { at: clock.now(), recent: [] } },
				},
			});
			expect(svc.assistants[2].inbound_webhook_url).toBe(ourUrl(staticData, 12));
		});

		it('a foreign post-call URL is saved with both settings and the assistant gets ours', async () => {
			const svc = service([
				assistant(12, {
					webhook_url: CRM,
					is_webhook_active: 1,
					send_webhook_only_on_completed: 0,
					include_recording_in_webhook: false,
				}),
			]);
			const { context, staticData, sent } = hook({ parameters: postCallParams() });
			await activate(context);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`PUT /api/user/assistant/12 ${JSON.stringify({
					is_webhook_active: true,
					webhook_url: ourUrl(staticData),
					send_webhook_only_on_completed: true,
					include_recording_in_webhook: true,
				})}`,
			]);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{
					url: CRM,
					active: true,
					settings: { send_webhook_only_on_completed: false, include_recording_in_webhook: false },
				},
			]);
			expect(svc.assistants[0].webhook_url).toBe(ourUrl(staticData));
		});

		it('"Fail Activation" names the host that receives the calls and changes nothing', async () => {
			const svc = service([assistant(12, { inbound_webhook_url: CRM })]);
			const { context, staticData, sent } = hook({
				parameters: inboundParams({ existingWebhook: 'fail' }),
			});
			const error = await activate(context).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as Error).message).toBe(
				'Assistant 12 already sends its calls to crm.example.com',
			);
			expect((error as NodeOperationError).description).toMatch(/Take Over and Give Back/);
			// the path and the token of the foreign URL appear nowhere
			expect(JSON.stringify(error)).not.toContain('crm-token');
			expect(lines(sent)).toEqual([`GET ${LIST} page=1`]);
			expect(staticData).toEqual({});
			expect(svc.assistants[0].inbound_webhook_url).toBe(CRM);
		});

		it('"Fail Activation" does not stop a switched-off webhook from being used', async () => {
			service([assistant(12, { webhook_url: CRM, is_webhook_active: false })]);
			const { context, staticData } = hook({
				parameters: postCallParams({ existingWebhook: 'fail' }),
			});
			await expect(activate(context)).resolves.toBe('created');
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{
					url: CRM,
					active: false,
					settings: { send_webhook_only_on_completed: true, include_recording_in_webhook: true },
				},
			]);
		});

		it('"Take Over" saves nothing to give back', async () => {
			service([assistant(12, { inbound_webhook_url: CRM })]);
			const { context, staticData } = hook({
				parameters: inboundParams({ existingWebhook: 'takeOver' }),
			});
			await activate(context);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([]);
		});

		it('taking over from another live trigger saves it first and then what that one would give back', async () => {
			const otherGiveBack = [{ url: CRM, active: true }];
			service([assistant(12, { inbound_webhook_url: OTHER })], new Map([[OTHER, otherGiveBack]]));
			const { context, staticData, sent } = hook({ parameters: inboundParams() });
			await activate(context);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`PROBE ${OTHER}`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${ourUrl(staticData)}"}`,
			]);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{ url: OTHER, active: true },
				{ url: CRM, active: true },
			]);
		});

		it('a trigger URL that no longer answers is not saved (giving calls back to it would lose them)', async () => {
			service([assistant(12, { inbound_webhook_url: OTHER })]);
			const { context, staticData } = hook({ parameters: inboundParams() });
			await activate(context);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([]);
		});

		it("a URL shaped like a trigger's on another host is not probed: it is kept to give back as it is", async () => {
			service(
				[assistant(12, { inbound_webhook_url: OFF_HOST })],
				new Map([[OFF_HOST, [{ url: CRM, active: true }]]]),
			);
			const { context, staticData, sent } = hook({ parameters: inboundParams() });
			await activate(context);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${ourUrl(staticData)}"}`,
			]);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{ url: OFF_HOST, active: true },
			]);
			// removal gives it back without asking it either
			sent.length = 0;
			await methods.delete.call(context);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${OFF_HOST}"}`,
			]);
		});

		it("a probe's answer is checked before use: give-back targets that are not http(s) URLs are dropped, off-host trigger URLs are never probed", async () => {
			const answer = [
				{ url: 'javascript:alert(1)', active: true },
				{ url: 'file:///etc/passwd', active: true },
				{ url: OFF_HOST, active: true },
				{ url: CRM, active: true },
			];
			service([assistant(12, { inbound_webhook_url: OTHER })], new Map([[OTHER, answer]]));
			const { context, staticData, sent } = hook({ parameters: inboundParams() });
			await activate(context);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`PROBE ${OTHER}`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${ourUrl(staticData)}"}`,
			]);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{ url: OTHER, active: true },
				{ url: OFF_HOST, active: true },
				{ url: CRM, active: true },
			]);
		});

		it('listening for a test event takes over from the same node\'s production URL even with "Fail Activation"', async () => {
			const production = `${PRODUCTION_URL}?assistant_id=12&secret=ProdSecretProdSecretProdSecret12`;
			service(
				[assistant(12, { inbound_webhook_url: production })],
				new Map([[production, [{ url: CRM, active: true }]]]),
			);
			const { context, staticData } = hook({
				parameters: inboundParams({ existingWebhook: 'fail' }),
				webhookUrl: TEST_URL,
				mode: 'manual',
			});
			await activate(context);
			expect((registration(staticData).assistants as IDataObject[])[0]).toEqual({
				id: 12,
				url: ourUrl(staticData, 12, TEST_URL),
				secret: secretOf(staticData),
				giveBack: [
					{ url: production, active: true },
					{ url: CRM, active: true },
				],
			});
		});

		it('registers an assistant once when it is chosen twice', async () => {
			service([assistant(12)]);
			const { context, staticData, sent } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator(12, 'id') }] },
				}),
			});
			await activate(context);
			expect(lines(sent).filter((l) => l.startsWith('POST'))).toHaveLength(1);
			expect((registration(staticData).assistants as IDataObject[]).map((a) => a.id)).toEqual([12]);
		});

		it('refuses an assistant ID that is not a number, before calling the service', async () => {
			const { context, sent } = hook({
				parameters: inboundParams({ assistantId: locator('abc', 'id') }),
			});
			await expect(activate(context)).rejects.toThrow(
				'Assistant must be a numeric assistant ID, got "abc"',
			);
			const none = hook({ parameters: inboundParams({ assistantId: locator('', 'list') }) });
			await expect(activate(none.context)).rejects.toThrow('No assistant chosen');
			expect([...sent, ...none.sent]).toEqual([]);
		});

		it('an assistant missing from the list fails activation before anything is registered', async () => {
			service([assistant(12)]);
			const { context, staticData, sent } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator(99) }] },
				}),
			});
			await expect(activate(context)).rejects.toThrow('Assistant 99 not found');
			const sentLines = lines(sent);
			expect(sentLines).toHaveLength(3);
			expect(sentLines[0]).toBe(`GET ${LIST} page=1`);
			expect(sentLines[1]).toMatch(
				new RegExp(
					`^POST ${ENABLE_INBOUND} \\{"assistant_id":12,"webhook_url":"${PRODUCTION_URL}\\?assistant_id=12&secret=[A-Za-z0-9]{32}"\\}$`,
				),
			);
			// all or nothing: assistant 12 gets back what it had (no URL)
			expect(sentLines[2]).toBe(`POST ${DISABLE_INBOUND} {"assistant_id":12}`);
			expect(staticData).toEqual({});
		});

		it('all or nothing: the first assistant gets its foreign URL back when the second one fails', async () => {
			// answered before the service's own interceptors, which nock consults in order
			nock(TEST_BASE_URL)
				.post(ENABLE_INBOUND, (b) => b.assistant_id === 34)
				.reply(422, {
					message: 'The given data was invalid.',
					errors: { webhook_url: ['The webhook url format is invalid.'] },
				});
			const svc = service([assistant(12, { inbound_webhook_url: CRM }), assistant(34)]);
			const { context, staticData } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator(34) }] },
				}),
			});
			const error = await methods.create.call(context).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect((error as Error).message).toMatch(/^Registering the webhook for assistant 34 failed/);
			expect(svc.assistants[0].inbound_webhook_url).toBe(CRM);
			expect(staticData).toEqual({});
		});

		it('an "Assistant not found" answer with status 200 is a failure, not a registration', async () => {
			nock(TEST_BASE_URL).post(ENABLE_INBOUND).reply(200, { message: 'Assistant not found' });
			service([assistant(12)]);
			const { context, staticData } = hook({ parameters: inboundParams() });
			await expect(methods.create.call(context)).rejects.toThrow(
				'Registering the webhook for assistant 12 failed: Assistant not found',
			);
			expect(staticData).toEqual({});
		});
	});

	describe('checkExists', () => {
		it('is false without static data and asks nothing', async () => {
			const { context, sent } = hook({ parameters: inboundParams() });
			await expect(methods.checkExists.call(context)).resolves.toBe(false);
			expect(sent).toEqual([]);
		});

		it('a restart asks the service, finds the URL still held and registers nothing again', async () => {
			service([assistant(12)]);
			const first = hook({ parameters: postCallParams() });
			await activate(first.context);
			const restarted = hook({ parameters: postCallParams(), staticData: first.staticData });
			await expect(activate(restarted.context)).resolves.toBe('existed');
			expect(lines(restarted.sent)).toEqual([`GET ${LIST} page=1`]);
		});

		it('a lost registration (the webhook switched off by someone) is repaired, keeping what to give back', async () => {
			const svc = service([assistant(12, { webhook_url: CRM, is_webhook_active: true })]);
			const first = hook({ parameters: postCallParams() });
			await activate(first.context);
			svc.assistants[0].is_webhook_active = false; // e.g. another workflow's removal switched it off
			const restarted = hook({ parameters: postCallParams(), staticData: first.staticData });
			await expect(activate(restarted.context)).resolves.toBe('created');
			expect(svc.assistants[0]).toMatchObject({
				is_webhook_active: true,
				webhook_url: ourUrl(restarted.staticData),
			});
			expect((registration(restarted.staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{
					url: CRM,
					active: true,
					settings: { send_webhook_only_on_completed: true, include_recording_in_webhook: true },
				},
			]);
		});

		it('another live trigger that took the assistant over is respected; a dead one is replaced', async () => {
			const svc = service([assistant(12)]);
			const first = hook({ parameters: inboundParams() });
			await activate(first.context);
			svc.assistants[0].inbound_webhook_url = OTHER;
			svc.live.set(OTHER, [{ url: ourUrl(first.staticData), active: true }]);
			const live = hook({ parameters: inboundParams(), staticData: first.staticData });
			await expect(methods.checkExists.call(live.context)).resolves.toBe(true);
			expect(lines(live.sent)).toEqual([`GET ${LIST} page=1`, `PROBE ${OTHER}`]);

			svc.live.delete(OTHER);
			const dead = hook({ parameters: inboundParams(), staticData: first.staticData });
			await expect(methods.checkExists.call(dead.context)).resolves.toBe(false);
		});

		it('is false without a request when the parameters changed (assistants, URL, event, settings)', async () => {
			service([assistant(12), assistant(34)]);
			const first = hook({ parameters: postCallParams() });
			await activate(first.context);
			const variants: HookContextOptions[] = [
				{
					parameters: postCallParams({
						additionalAssistants: { assistant: [{ assistantId: locator(34) }] },
					}),
				},
				{ parameters: postCallParams(), webhookUrl: TEST_URL },
				{ parameters: inboundParams() },
				{ parameters: postCallParams({ options: { includeRecording: false } }) },
			];
			for (const variant of variants) {
				const ctx = hook({ ...variant, staticData: first.staticData });
				await expect(methods.checkExists.call(ctx.context)).resolves.toBe(false);
				expect(ctx.sent).toEqual([]);
			}
		});
	});

	describe('delete', () => {
		it('gives a foreign post-call URL back with both settings', async () => {
			const before = {
				is_webhook_active: true,
				webhook_url: CRM,
				send_webhook_only_on_completed: false,
				include_recording_in_webhook: false,
			};
			const svc = service([assistant(12, before)]);
			const { context, staticData, sent } = hook({ parameters: postCallParams() });
			await activate(context);
			sent.length = 0;
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`PUT /api/user/assistant/12 ${JSON.stringify(before)}`,
			]);
			expect(svc.assistants[0]).toMatchObject(before);
			expect(staticData).toEqual({});
		});

		it('gives a switched-off assistant its settings back, switched off and without a URL', async () => {
			const svc = service([assistant(12, { send_webhook_only_on_completed: false })]);
			const { context, sent } = hook({ parameters: postCallParams() });
			await activate(context);
			sent.length = 0;
			await methods.delete.call(context);
			expect(lines(sent)[1]).toBe(
				`PUT /api/user/assistant/12 ${JSON.stringify({
					is_webhook_active: false,
					webhook_url: null,
					send_webhook_only_on_completed: false,
					include_recording_in_webhook: true,
				})}`,
			);
			expect(svc.assistants[0]).toMatchObject({ is_webhook_active: false, webhook_url: null });
		});

		it('gives a foreign inbound URL back, and switches the inbound webhook off when there was none', async () => {
			const svc = service([assistant(12, { inbound_webhook_url: CRM }), assistant(34)]);
			const { context, sent } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator(34) }] },
				}),
			});
			await activate(context);
			sent.length = 0;
			await methods.delete.call(context);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${CRM}"}`,
				`POST ${DISABLE_INBOUND} {"assistant_id":34}`,
			]);
			expect(svc.assistants.map((a) => a.inbound_webhook_url)).toEqual([CRM, null]);
		});

		it('"Take Over" switches the webhook off on removal', async () => {
			service([assistant(12, { webhook_url: CRM, is_webhook_active: true })]);
			const { context, sent } = hook({
				parameters: postCallParams({ existingWebhook: 'takeOver' }),
			});
			await activate(context);
			sent.length = 0;
			await methods.delete.call(context);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`POST ${DISABLE_POST_CALL} {"assistant_id":12}`,
			]);
		});

		it('leaves an assistant alone that posts elsewhere by now (the non-holder removes nothing)', async () => {
			const svc = service([assistant(12)]);
			const { context, staticData, sent } = hook({ parameters: inboundParams() });
			await activate(context);
			svc.assistants[0].inbound_webhook_url = OTHER;
			sent.length = 0;
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(lines(sent)).toEqual([`GET ${LIST} page=1`]);
			expect(svc.assistants[0].inbound_webhook_url).toBe(OTHER);
			expect(staticData).toEqual({});
		});

		it('a chain: the first live target is given back; a trigger that no longer answers is skipped', async () => {
			const svc = service(
				[assistant(12, { inbound_webhook_url: OTHER })],
				new Map([[OTHER, [{ url: CRM, active: true }]]]),
			);
			const { context, staticData, sent } = hook({ parameters: inboundParams() });
			await activate(context);
			const saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;

			// the other trigger is still active: it gets the calls back
			sent.length = 0;
			await methods.delete.call(context);
			expect(lines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`PROBE ${OTHER}`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${OTHER}"}`,
			]);

			// the other trigger was deactivated meanwhile: its own earlier target comes back
			svc.assistants[0].inbound_webhook_url = ourUrl(saved);
			svc.live.delete(OTHER);
			const again = hook({ parameters: inboundParams(), staticData: saved });
			await methods.delete.call(again.context);
			expect(lines(again.sent)).toEqual([
				`GET ${LIST} page=1`,
				`PROBE ${OTHER}`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${CRM}"}`,
			]);
			expect(svc.assistants[0].inbound_webhook_url).toBe(CRM);
		});

		it('an assistant that no longer exists counts as removed', async () => {
			const svc = service([assistant(12)]);
			const { context, staticData } = hook({ parameters: inboundParams() });
			await activate(context);
			svc.assistants.splice(0, 1);
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(staticData).toEqual({});
		});

		it('keeps what it could not give back, reports false, and a second delete finishes the job', async () => {
			const svc = service([assistant(12)]);
			const { context, staticData, logs } = hook({ parameters: inboundParams() });
			await activate(context);
			nock.cleanAll();
			nock(TEST_BASE_URL)
				.post(DISABLE_INBOUND)
				.reply(422, { message: 'The given data was invalid.' });
			service(svc.assistants);
			await expect(methods.delete.call(context)).resolves.toBe(false);
			expect((registration(staticData).assistants as IDataObject[]).map((a) => a.id)).toEqual([12]);
			expect(logs.some((l) => l.level === 'warn' && l.message.includes('assistant 12'))).toBe(true);
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(staticData).toEqual({});
			expect(svc.assistants[0].inbound_webhook_url).toBeNull();
		});

		it('does nothing without a registration', async () => {
			const { context, sent } = hook({ parameters: inboundParams() });
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(sent).toEqual([]);
		});
	});

	describe('the probe answered by webhook()', () => {
		async function probeWith(query: IDataObject) {
			service([assistant(12, { inbound_webhook_url: CRM })]);
			const { context, staticData } = hook({ parameters: inboundParams() });
			await activate(context);
			const ctx = createWebhookContext({
				parameters: inboundParams(),
				staticData,
				query: { assistant_id: '12', secret: secretOf(staticData), ...query },
				headers: { 'x-voice-chat-assistant-probe': '1' },
				body: {},
			});
			const result = await trigger.webhook.call(ctx.context);
			return { result, response: ctx.response };
		}

		it('with the secret: 200 "live" and the give-back list, and no execution', async () => {
			const { result, response } = await probeWith({});
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response.statusCode).toBe(200);
			expect(response.body).toEqual({
				voiceChatAssistantTrigger: 'live',
				giveBack: [{ url: CRM, active: true }],
			});
		});

		it('without the right secret or for an assistant not registered: 404, and nothing is revealed', async () => {
			for (const query of [
				{ secret: 'WrongSecretWrongSecretWrongSecre' },
				{ assistant_id: '34' },
			]) {
				const { result, response } = await probeWith(query);
				expect(result).toEqual({ noWebhookResponse: true });
				expect(response.statusCode).toBe(404);
				expect(JSON.stringify(response.body)).not.toContain('crm');
				nock.cleanAll();
			}
		});
	});
});
