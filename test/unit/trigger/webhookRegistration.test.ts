/**
 * The trigger takes an assistant's webhook over: what create registers and
 * saves to give back, and how checkExists finds a registration again after a
 * restart, repairs a lost one and respects another live trigger. Every test
 * asserts the exact requests sent.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { TEST_BASE_URL } from '../../helpers/context';

import {
	PRODUCTION_URL,
	TEST_URL,
	activate,
	locator,
	requestLines,
} from '../../helpers/hookContext';
import { triggerMethods as methods } from '../../helpers/registeredTrigger';
import type { HookContextOptions } from '../../helpers/hookContext';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import {
	SECRET,
	LIST,
	ENABLE_INBOUND,
	CRM,
	OTHER,
	OFF_HOST,
	assistant,
	service,
	inboundParams,
	postCallParams,
	hook,
	registration,
	secretOf,
	ourUrl,
	probeOtherThenEnable,
	serviceWithOther,
} from './webhookLifecycle';

describe('Voice Chat Assistant Trigger: registering the webhook (create, checkExists)', () => {
	const clock = fakeClockPerTest();

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
			expect(requestLines(sent)).toEqual([
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
			expect(requestLines(sent)).toEqual([
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

		it('"Take Over" saves nothing to give back', async () => {
			service([assistant(12, { inbound_webhook_url: CRM })]);
			const { context, staticData } = hook({
				parameters: inboundParams({ existingWebhook: 'takeOver' }),
			});
			await activate(context);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([]);
		});

		it.each([
			[
				'taking over from another live trigger saves it first and then what that one would give back',
				[{ url: CRM, active: true }],
				[
					{ url: OTHER, active: true },
					{ url: CRM, active: true },
				],
			],
			[
				"a probe's answer is checked before use: give-back targets that are not http(s) URLs are dropped, off-host trigger URLs are never probed",
				[
					{ url: 'javascript:alert(1)', active: true },
					{ url: 'file:///etc/passwd', active: true },
					{ url: OFF_HOST, active: true },
					{ url: CRM, active: true },
				],
				[
					{ url: OTHER, active: true },
					{ url: OFF_HOST, active: true },
					{ url: CRM, active: true },
				],
			],
		])('%s', async (_title, otherAnswer, saved) => {
			serviceWithOther(otherAnswer);
			const { context, staticData, sent } = hook({ parameters: inboundParams() });
			await activate(context);
			expect(requestLines(sent)).toEqual(probeOtherThenEnable(ourUrl(staticData)));
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual(saved);
		});

		it('a trigger URL that no longer answers is not saved (giving calls back to it would lose them)', async () => {
			serviceWithOther();
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
			expect(requestLines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${ourUrl(staticData)}"}`,
			]);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{ url: OFF_HOST, active: true },
			]);
			// removal gives it back without asking it either
			sent.length = 0;
			await methods.delete.call(context);
			expect(requestLines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${OFF_HOST}"}`,
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

		it.each([
			['a 502', 502, { message: 'Bad Gateway' }],
			['a 500', 500, { message: 'Server Error' }],
		])(
			'a registration the service carried out but whose answers were lost (%s, retries too): the activation fails and the assistant gets its earlier webhook back',
			async (_name, status, body) => {
				const assistants = [assistant(12, { inbound_webhook_url: CRM })];
				// the service applies the change, then the answer is lost, also for every retry
				// (registered before service(): nock tries interceptors in the order they were added)
				nock(TEST_BASE_URL)
					.post(ENABLE_INBOUND)
					.times(10)
					.reply((_uri, request) => {
						const url = String((request as IDataObject).webhook_url);
						assistants[0].inbound_webhook_url = url;
						// the give-back's answer arrives
						return url === CRM ? [200, { message: 'ok', data: [] }] : [status, body];
					});
				service(assistants);
				const { context, staticData, sent } = hook({ parameters: inboundParams() });
				await expect(activate(context)).rejects.toThrow();
				expect(
					requestLines(sent)
						.filter((l) => l.startsWith('POST'))
						.at(-1),
				).toBe(`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${CRM}"}`);
				expect(assistants[0].inbound_webhook_url).toBe(CRM);
				expect(staticData.registration).toBeUndefined();
			},
		);

		it('a registration refused by the service (422): nothing is given back, the assistant keeps its webhook', async () => {
			const assistants = [assistant(12, { inbound_webhook_url: CRM })];
			nock(TEST_BASE_URL)
				.post(ENABLE_INBOUND)
				.reply(422, { message: 'The webhook url field must be a valid URL.' });
			service(assistants);
			const { context, sent } = hook({ parameters: inboundParams() });
			await expect(activate(context)).rejects.toThrow();
			expect(requestLines(sent).filter((l) => l.startsWith('POST'))).toHaveLength(1);
			expect(assistants[0].inbound_webhook_url).toBe(CRM);
		});

		it('registers an assistant once when it is chosen twice', async () => {
			service([assistant(12)]);
			const { context, staticData, sent } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator(12, 'id') }] },
				}),
			});
			await activate(context);
			expect(requestLines(sent).filter((l) => l.startsWith('POST'))).toHaveLength(1);
			expect((registration(staticData).assistants as IDataObject[]).map((a) => a.id)).toEqual([12]);
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
			expect(requestLines(restarted.sent)).toEqual([`GET ${LIST} page=1`]);
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
			expect(requestLines(live.sent)).toEqual([`GET ${LIST} page=1`, `PROBE ${OTHER}`]);

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
});
