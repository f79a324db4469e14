import nock from 'nock';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { VoiceChatAssistantTrigger } from '../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { PRODUCTION_URL, TEST_URL, createHookContext, locator } from '../../helpers/hookContext';
import type { HookContextOptions } from '../../helpers/hookContext';
import { installFakeClock } from '../../helpers/fakeClock';

const trigger = new VoiceChatAssistantTrigger();
const methods = trigger.webhookMethods.default;

const SECRET = /^[A-Za-z0-9]{32}$/;

const ENABLE_INBOUND = '/api/user/assistants/enable-inbound-webhook';
const DISABLE_INBOUND = '/api/user/assistants/disable-inbound-webhook';
const DISABLE_POST_CALL = '/api/user/assistants/disable-webhook';

function inboundParams(extra: IDataObject = {}): IDataObject {
	return {
		event: 'inboundCallCompleted',
		assistantId: locator(12),
		additionalAssistants: {},
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

/** Records request bodies of one interceptor. */
function recordBodies() {
	const bodies: IDataObject[] = [];
	const push = (body: IDataObject) => {
		bodies.push(body);
		return true;
	};
	return { bodies, push };
}

function secretOf(url: string): string {
	return new URL(url).searchParams.get('secret') ?? '';
}

describe('Voice Chat Assistant Trigger: registration lifecycle', () => {
	let clock: ReturnType<typeof installFakeClock>;
	beforeEach(() => {
		resetLimiters();
		clock = installFakeClock();
	});
	afterEach(() => {
		clock.restore();
		expect(nock.pendingMocks()).toEqual([]);
		nock.cleanAll();
	});

	describe('Inbound Call Completed', () => {
		it('registers the URL with assistant_id and a secret on each assistant and keeps it in static data', async () => {
			const { bodies, push } = recordBodies();
			const scope = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
				.post(ENABLE_INBOUND, push)
				.times(2)
				.reply(200, { message: 'Inbound webhook enabled successfully', data: [] });

			const { context, staticData, sent } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator(34, 'id') }] },
				}),
			});

			await expect(activate(context)).resolves.toBe('created');
			scope.done();

			expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${ENABLE_INBOUND}`, `POST ${ENABLE_INBOUND}`]);
			const secret = secretOf(bodies[0].webhook_url as string);
			expect(secret).toMatch(SECRET);
			expect(bodies).toEqual([
				{ assistant_id: 12, webhook_url: `${PRODUCTION_URL}?assistant_id=12&secret=${secret}` },
				{ assistant_id: 34, webhook_url: `${PRODUCTION_URL}?assistant_id=34&secret=${secret}` },
			]);
			expect(staticData).toEqual({
				registration: {
					event: 'inboundCallCompleted',
					webhookUrl: PRODUCTION_URL,
					secret,
					assistants: [
						{ id: 12, url: `${PRODUCTION_URL}?assistant_id=12&secret=${secret}` },
						{ id: 34, url: `${PRODUCTION_URL}?assistant_id=34&secret=${secret}` },
					],
				},
			});
		});

		it('a restart with the same static data finds the registration and registers nothing again', async () => {
			nock(TEST_BASE_URL).post(ENABLE_INBOUND).reply(200, { message: 'ok', data: [] });
			const first = hook({ parameters: inboundParams() });
			await expect(activate(first.context)).resolves.toBe('created');
			const saved = JSON.parse(JSON.stringify(first.staticData)) as IDataObject;

			// n8n restarts: a new context, the saved static data, no request to the service at all
			const restarted = hook({ parameters: inboundParams(), staticData: saved });
			await expect(activate(restarted.context)).resolves.toBe('existed');
			await expect(activate(restarted.context)).resolves.toBe('existed');
			expect(restarted.sent).toEqual([]);
			expect(restarted.staticData).toEqual(first.staticData);
		});

		it('checkExists is false without static data and never calls the service', async () => {
			const { context, sent, staticData } = hook({ parameters: inboundParams() });
			await expect(methods.checkExists.call(context)).resolves.toBe(false);
			expect(sent).toEqual([]);
			expect(staticData).toEqual({});
		});

		it('checkExists compares per assistant: a different set of assistants is not the same registration', async () => {
			nock(TEST_BASE_URL).post(ENABLE_INBOUND).times(2).reply(200, { message: 'ok', data: [] });
			const two = hook({
				parameters: inboundParams({ additionalAssistants: { assistant: [{ assistantId: locator(34) }] } }),
			});
			await activate(two.context);

			const onlyFirst = hook({ parameters: inboundParams(), staticData: two.staticData });
			await expect(methods.checkExists.call(onlyFirst.context)).resolves.toBe(false);
			const other = hook({
				parameters: inboundParams({ additionalAssistants: { assistant: [{ assistantId: locator(56) }] } }),
				staticData: two.staticData,
			});
			await expect(methods.checkExists.call(other.context)).resolves.toBe(false);
			const reordered = hook({
				parameters: inboundParams({
					assistantId: locator(34),
					additionalAssistants: { assistant: [{ assistantId: locator(12) }] },
				}),
				staticData: two.staticData,
			});
			await expect(methods.checkExists.call(reordered.context)).resolves.toBe(true);
			const tampered = JSON.parse(JSON.stringify(two.staticData)) as IDataObject;
			((tampered.registration as IDataObject).assistants as IDataObject[])[1].url = `${PRODUCTION_URL}?assistant_id=34&secret=other`;
			const withTampered = hook({
				parameters: inboundParams({ additionalAssistants: { assistant: [{ assistantId: locator(34) }] } }),
				staticData: tampered,
			});
			await expect(methods.checkExists.call(withTampered.context)).resolves.toBe(false);
			expect([onlyFirst, other, reordered, withTampered].flatMap((c) => c.sent)).toEqual([]);
		});

		it('checkExists is false for another URL (test vs production) or another event', async () => {
			nock(TEST_BASE_URL).post(ENABLE_INBOUND).reply(200, { message: 'ok', data: [] });
			const prod = hook({ parameters: inboundParams() });
			await activate(prod.context);

			const test = hook({ parameters: inboundParams(), staticData: prod.staticData, webhookUrl: TEST_URL, mode: 'manual' });
			await expect(methods.checkExists.call(test.context)).resolves.toBe(false);
			const postCall = hook({ parameters: postCallParams(), staticData: prod.staticData });
			await expect(methods.checkExists.call(postCall.context)).resolves.toBe(false);
			expect([...test.sent, ...postCall.sent]).toEqual([]);
			// checkExists changed nothing
			expect((prod.staticData.registration as IDataObject).webhookUrl).toBe(PRODUCTION_URL);
		});

		it('test mode registers the /webhook-test/ URL the same way', async () => {
			const { bodies, push } = recordBodies();
			nock(TEST_BASE_URL).post(ENABLE_INBOUND, push).reply(200, { message: 'ok', data: [] });
			const { context, staticData } = hook({ parameters: inboundParams(), webhookUrl: TEST_URL, mode: 'manual' });
			await expect(activate(context)).resolves.toBe('created');
			const secret = secretOf(bodies[0].webhook_url as string);
			expect(bodies).toEqual([{ assistant_id: 12, webhook_url: `${TEST_URL}?assistant_id=12&secret=${secret}` }]);
			expect((staticData.registration as IDataObject).webhookUrl).toBe(TEST_URL);

			const { bodies: removed, push: pushRemoved } = recordBodies();
			nock(TEST_BASE_URL).post(DISABLE_INBOUND, pushRemoved).reply(200, { message: 'ok', data: [] });
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(removed).toEqual([{ assistant_id: 12 }]);
			expect(staticData).toEqual({});
		});

		it('registers an assistant once when it is chosen twice', async () => {
			const { bodies, push } = recordBodies();
			nock(TEST_BASE_URL).post(ENABLE_INBOUND, push).reply(200, { message: 'ok', data: [] });
			const { context, staticData } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator('12', 'id') }, { assistantId: locator(' ', 'id') }] },
				}),
			});
			await activate(context);
			expect(bodies).toHaveLength(1);
			expect(((staticData.registration as IDataObject).assistants as IDataObject[]).map((a) => a.id)).toEqual([12]);
		});

		it('refuses an assistant ID that is not a number, before calling the service', async () => {
			const { context, sent } = hook({ parameters: inboundParams({ assistantId: locator('abc', 'id') }) });
			await expect(activate(context)).rejects.toThrow(NodeOperationError);
			await expect(activate(context)).rejects.toThrow('Assistant must be a numeric assistant ID, got "abc"');
			const none = hook({ parameters: inboundParams({ assistantId: locator('', 'list') }) });
			await expect(activate(none.context)).rejects.toThrow('No assistant chosen');
			expect([...sent, ...none.sent]).toEqual([]);
		});

		it('all or nothing: when the second assistant fails, the first is removed again and the error names the assistant', async () => {
			const { bodies: removed, push } = recordBodies();
			nock(TEST_BASE_URL)
				.post(ENABLE_INBOUND, (b) => b.assistant_id === 12)
				.reply(200, { message: 'ok', data: [] })
				.post(ENABLE_INBOUND, (b) => b.assistant_id === 99)
				.reply(404, { message: 'Assistant not found' })
				.post(DISABLE_INBOUND, push)
				.reply(200, { message: 'ok', data: [] });
			const { context, staticData } = hook({
				parameters: inboundParams({ additionalAssistants: { assistant: [{ assistantId: locator(99) }] } }),
			});
			const error = await methods.create.call(context).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect((error as Error).message).toBe('Registering the webhook for assistant 99 failed: Assistant not found');
			expect(removed).toEqual([{ assistant_id: 12 }]);
			expect(staticData).toEqual({});
		});

		it('when the undo fails too, the registration that could not be undone stays listed for delete', async () => {
			nock(TEST_BASE_URL)
				.post(ENABLE_INBOUND, (b) => b.assistant_id === 12)
				.reply(200, { message: 'ok', data: [] })
				.post(ENABLE_INBOUND, (b) => b.assistant_id === 99)
				.reply(404, { message: 'Assistant not found' })
				.post(DISABLE_INBOUND, { assistant_id: 12 })
				.reply(422, { message: 'The given data was invalid.' });
			const { context, staticData, logs } = hook({
				parameters: inboundParams({ additionalAssistants: { assistant: [{ assistantId: locator(99) }] } }),
			});
			await expect(methods.create.call(context)).rejects.toThrow('assistant 99');
			const registration = staticData.registration as IDataObject;
			expect(registration.assistants).toEqual([
				{ id: 12, url: `${PRODUCTION_URL}?assistant_id=12&secret=${registration.secret}` },
			]);
			expect(logs.some((l) => l.level === 'warn' && l.message.includes('assistant 12 again'))).toBe(true);
		});

		it('a failed new registration leaves the earlier one in static data, so delete can still remove it', async () => {
			nock(TEST_BASE_URL).post(ENABLE_INBOUND).reply(200, { message: 'ok', data: [] });
			const before = hook({ parameters: inboundParams() });
			await activate(before.context);
			const earlier = JSON.parse(JSON.stringify(before.staticData));

			// n8n's URL changed (another host): not the same registration, and the service is down
			nock(TEST_BASE_URL).post(ENABLE_INBOUND).times(8).reply(503, { message: 'Service Unavailable' });
			const moved = hook({
				parameters: inboundParams(),
				staticData: before.staticData,
				webhookUrl: 'https://n8n.other.example.com/webhook/3f9c2a10-webhook-id/webhook',
			});
			await expect(activate(moved.context)).rejects.toThrow('Registering the webhook for assistant 12 failed');
			expect(moved.staticData).toEqual(earlier);
		});

		it('an "Assistant not found" answer with status 200 is a failure, not a registration', async () => {
			nock(TEST_BASE_URL).post(ENABLE_INBOUND).reply(200, { message: 'Assistant not found' });
			const { context, staticData } = hook({ parameters: inboundParams() });
			await expect(methods.create.call(context)).rejects.toThrow('Assistant 12 not found');
			expect(staticData).toEqual({});
		});

		it('a new registration replaces the old one with a new secret; assistants no longer watched are left alone', async () => {
			const { bodies, push } = recordBodies();
			nock(TEST_BASE_URL).post(ENABLE_INBOUND, push).times(3).reply(200, { message: 'ok', data: [] });
			const before = hook({
				parameters: inboundParams({ additionalAssistants: { assistant: [{ assistantId: locator(34) }] } }),
			});
			await activate(before.context);
			const oldSecret = (before.staticData.registration as IDataObject).secret;

			const after = hook({ parameters: inboundParams(), staticData: before.staticData });
			await expect(activate(after.context)).resolves.toBe('created');
			const registration = after.staticData.registration as IDataObject;
			expect(registration.secret).not.toBe(oldSecret);
			expect(bodies[2]).toEqual({
				assistant_id: 12,
				webhook_url: `${PRODUCTION_URL}?assistant_id=12&secret=${registration.secret}`,
			});
			expect(registration.assistants).toEqual([{ id: 12, url: bodies[2].webhook_url }]);
			expect(after.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
				expect.stringContaining('assistant(s) 34 is no longer watched'),
			]);
		});
	});

	describe('Call Completed (post-call webhook)', () => {
		it('updates each assistant with is_webhook_active, the URL and the two settings', async () => {
			const { bodies, push } = recordBodies();
			const scope = nock(TEST_BASE_URL)
				.put('/api/user/assistant/12', push)
				.reply(200, { message: 'Assistant updated successfully', data: { id: 12 } })
				.put('/api/user/assistant/34', push)
				.reply(200, { message: 'Assistant updated successfully', data: { id: 34 } });
			const { context, staticData } = hook({
				parameters: postCallParams({
					additionalAssistants: { assistant: [{ assistantId: locator(34) }] },
					options: { onlyCompletedCalls: false },
				}),
			});
			await expect(activate(context)).resolves.toBe('created');
			scope.done();
			const secret = secretOf(bodies[0].webhook_url as string);
			expect(secret).toMatch(SECRET);
			expect(bodies).toEqual([
				{
					is_webhook_active: true,
					webhook_url: `${PRODUCTION_URL}?assistant_id=12&secret=${secret}`,
					send_webhook_only_on_completed: false,
					include_recording_in_webhook: true,
				},
				{
					is_webhook_active: true,
					webhook_url: `${PRODUCTION_URL}?assistant_id=34&secret=${secret}`,
					send_webhook_only_on_completed: false,
					include_recording_in_webhook: true,
				},
			]);
			expect(staticData).toEqual({
				registration: {
					event: 'callCompleted',
					webhookUrl: PRODUCTION_URL,
					secret,
					assistants: [
						{ id: 12, url: `${PRODUCTION_URL}?assistant_id=12&secret=${secret}` },
						{ id: 34, url: `${PRODUCTION_URL}?assistant_id=34&secret=${secret}` },
					],
					settings: { send_webhook_only_on_completed: false, include_recording_in_webhook: true },
				},
			});
		});

		it('both settings default to true', async () => {
			const { bodies, push } = recordBodies();
			nock(TEST_BASE_URL).put('/api/user/assistant/12', push).reply(200, { message: 'ok', data: { id: 12 } });
			const { context } = hook({ parameters: postCallParams() });
			await activate(context);
			expect(bodies[0]).toMatchObject({ send_webhook_only_on_completed: true, include_recording_in_webhook: true });
		});

		it('restart idempotency, and a change of the settings means a new registration', async () => {
			nock(TEST_BASE_URL).put('/api/user/assistant/12').reply(200, { message: 'ok', data: { id: 12 } });
			const first = hook({ parameters: postCallParams() });
			await activate(first.context);

			const restarted = hook({ parameters: postCallParams(), staticData: first.staticData });
			await expect(activate(restarted.context)).resolves.toBe('existed');
			expect(restarted.sent).toEqual([]);

			const changed = hook({
				parameters: postCallParams({ options: { includeRecording: false } }),
				staticData: first.staticData,
			});
			await expect(methods.checkExists.call(changed.context)).resolves.toBe(false);
			expect(changed.sent).toEqual([]);
		});

		it('delete disables the post-call webhook of the registered assistants and clears static data', async () => {
			nock(TEST_BASE_URL).put(/\/api\/user\/assistant\/\d+/).times(2).reply(200, { message: 'ok', data: {} });
			const { context, staticData } = hook({
				parameters: postCallParams({ additionalAssistants: { assistant: [{ assistantId: locator(34) }] } }),
			});
			await activate(context);

			const { bodies, push } = recordBodies();
			nock(TEST_BASE_URL).post(DISABLE_POST_CALL, push).times(2).reply(200, { message: 'Webhook disabled successfully', data: [] });
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(bodies).toEqual([{ assistant_id: 12 }, { assistant_id: 34 }]);
			expect(staticData).toEqual({});
		});
	});

	describe('delete', () => {
		async function registered(params: IDataObject) {
			nock(TEST_BASE_URL).post(ENABLE_INBOUND).times(2).reply(200, { message: 'ok', data: [] });
			const ctx = hook({ parameters: params });
			await activate(ctx.context);
			return ctx;
		}

		it('removes only what static data lists, with the event that was registered, whatever the parameters say now', async () => {
			const { staticData } = await registered(
				inboundParams({ additionalAssistants: { assistant: [{ assistantId: locator(34) }] } }),
			);
			const { bodies, push } = recordBodies();
			nock(TEST_BASE_URL).post(DISABLE_INBOUND, push).times(2).reply(200, { message: 'ok', data: [] });
			// the parameters changed in the meantime: another event and another assistant
			const later = hook({ parameters: postCallParams({ assistantId: locator(77) }), staticData });
			await expect(methods.delete.call(later.context)).resolves.toBe(true);
			expect(bodies).toEqual([{ assistant_id: 12 }, { assistant_id: 34 }]);
			expect(later.sent.map((r) => r.url)).toEqual([DISABLE_INBOUND, DISABLE_INBOUND]);
			expect(staticData).toEqual({});
		});

		it('tolerates 404 "Assistant not found": the assistant is already gone', async () => {
			const { context, staticData, logs } = await registered(
				inboundParams({ additionalAssistants: { assistant: [{ assistantId: locator(34) }] } }),
			);
			nock(TEST_BASE_URL)
				.post(DISABLE_INBOUND, { assistant_id: 12 })
				.reply(404, { message: 'Assistant not found' })
				.post(DISABLE_INBOUND, { assistant_id: 34 })
				.reply(200, { message: 'ok', data: [] });
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(staticData).toEqual({});
			expect(logs.some((l) => l.message.includes('assistant 12 no longer exists'))).toBe(true);
		});

		it('keeps what it could not remove, reports false, and a second delete finishes the job', async () => {
			const { context, staticData } = await registered(
				inboundParams({ additionalAssistants: { assistant: [{ assistantId: locator(34) }] } }),
			);
			nock(TEST_BASE_URL)
				.post(DISABLE_INBOUND, { assistant_id: 12 })
				.reply(200, { message: 'ok', data: [] })
				.post(DISABLE_INBOUND, { assistant_id: 34 })
				.reply(422, { message: 'The given data was invalid.', errors: { assistant_id: ['Try later.'] } });
			await expect(methods.delete.call(context)).resolves.toBe(false);
			const registration = staticData.registration as IDataObject;
			expect((registration.assistants as IDataObject[]).map((a) => a.id)).toEqual([34]);

			nock(TEST_BASE_URL).post(DISABLE_INBOUND, { assistant_id: 34 }).reply(200, { message: 'ok', data: [] });
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(staticData).toEqual({});
		});

		it('does nothing without a registration', async () => {
			const { context, sent } = hook({ parameters: inboundParams() });
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(sent).toEqual([]);
		});
	});
});
