/**
 * On removal the trigger gives each assistant back what it had before (a
 * foreign URL, another live trigger, or off), and answers other triggers'
 * liveness probe with what it would give back.
 */
import nock from 'nock';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';
import type { IDataObject } from 'n8n-workflow';

import { openTargets } from '../../../nodes/VoiceChatAssistantTrigger/calls/ownership';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { PRODUCTION_URL, activate, locator, requestLines } from '../../helpers/hookContext';
import { triggerMethods as methods } from '../../helpers/registeredTrigger';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import {
	LIST,
	ENABLE_INBOUND,
	DISABLE_INBOUND,
	DISABLE_POST_CALL,
	ENABLE_CHAT,
	DISABLE_CHAT,
	CRM,
	OTHER,
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
	probeRegistered,
} from './webhookLifecycle';

const ERP = 'https://erp.example.com/calls?key=erp-key';

/**
 * The static data after a removal, without the catch-up state: that is kept,
 * marked removed (a publish is a removal and a registration, catchUp.ts).
 */
function afterRemoval(staticData: IDataObject): IDataObject {
	const { catchUp, ...rest } = staticData;
	expect(catchUp).toMatchObject({ removedAt: expect.any(Number) });
	return rest;
}

describe('Voice Chat Assistant Trigger: giving the webhook back (delete, the probe)', () => {
	fakeClockPerTest();

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
			expect(requestLines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`PUT /api/user/assistant/12 ${JSON.stringify(before)}`,
			]);
			expect(svc.assistants[0]).toMatchObject(before);
			expect(afterRemoval(staticData)).toEqual({});
		});

		it('gives a switched-off assistant its settings back, switched off and without a URL', async () => {
			const svc = service([assistant(12, { send_webhook_only_on_completed: false })]);
			const { context, sent } = hook({ parameters: postCallParams() });
			await activate(context);
			sent.length = 0;
			await methods.delete.call(context);
			expect(requestLines(sent)[1]).toBe(
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
			expect(requestLines(sent)).toEqual([
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
			expect(requestLines(sent)).toEqual([
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
			expect(requestLines(sent)).toEqual([`GET ${LIST} page=1`]);
			expect(svc.assistants[0].inbound_webhook_url).toBe(OTHER);
			expect(afterRemoval(staticData)).toEqual({});
		});

		it('a chain: the first live target is given back; a trigger that no longer answers is skipped', async () => {
			const svc = serviceWithOther([{ url: CRM, active: true }]);
			const { context, staticData, sent } = hook({ parameters: inboundParams() });
			await activate(context);
			const saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;

			// the other trigger is still active: it gets the calls back
			sent.length = 0;
			await methods.delete.call(context);
			expect(requestLines(sent)).toEqual(probeOtherThenEnable(OTHER));

			// the other trigger was deactivated meanwhile: its own earlier target comes back (the same
			// registration removed again, as another n8n process would: this one knows it removed it)
			forgetProcess();
			svc.assistants[0].inbound_webhook_url = ourUrl(saved);
			svc.live.delete(OTHER);
			const again = hook({ parameters: inboundParams(), staticData: saved });
			await methods.delete.call(again.context);
			expect(requestLines(again.sent)).toEqual(probeOtherThenEnable(CRM));
			expect(svc.assistants[0].inbound_webhook_url).toBe(CRM);
		});

		it('a stale save after a publish (a delivery that began before it ended after it, saving its copy): the assistant the publish added still gets its earlier webhook back', async () => {
			const svc = service([
				assistant(12, { inbound_webhook_url: CRM }),
				assistant(34, { inbound_webhook_url: ERP }),
			]);
			const { context, staticData } = hook({ parameters: inboundParams() });
			await activate(context);
			// the delivery's copy of the static data, loaded before the publish
			const copy = JSON.parse(JSON.stringify(staticData)) as IDataObject;
			// the publish adds assistant 34 (n8n removes the old version and registers the new one)
			const both = inboundParams({
				additionalAssistants: { assistant: [{ assistantId: locator(34) }] },
			});
			await methods.delete.call(context);
			const published = hook({ parameters: both, staticData });
			await activate(published.context);
			expect(svc.assistants.map((a) => a.inbound_webhook_url)).toEqual([
				ourUrl(staticData),
				expect.stringContaining('assistant_id=34'),
			]);
			// the delivery ends and n8n saves its copy whole
			staticData.registration = copy.registration;
			// deactivation: both assistants get their earlier webhook back
			const removal = hook({ parameters: both, staticData });
			await expect(methods.delete.call(removal.context)).resolves.toBe(true);
			expect(svc.assistants.map((a) => a.inbound_webhook_url)).toEqual([CRM, ERP]);
		});

		it('an assistant that no longer exists counts as removed', async () => {
			const svc = service([assistant(12)]);
			const { context, staticData } = hook({ parameters: inboundParams() });
			await activate(context);
			svc.assistants.splice(0, 1);
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(afterRemoval(staticData)).toEqual({});
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
			expect(afterRemoval(staticData)).toEqual({});
			expect(svc.assistants[0].inbound_webhook_url).toBeNull();
		});

		it('does nothing without a registration', async () => {
			const { context, sent } = hook({ parameters: inboundParams() });
			await expect(methods.delete.call(context)).resolves.toBe(true);
			expect(sent).toEqual([]);
		});
	});

	describe('Conversation Ended (chat)', () => {
		it('takes the chat webhook over with its own switch and gives the previous URL back on removal', async () => {
			const svc = service([assistant(12, { conversation_ended_webhook_url: CRM })]);
			const { context, staticData, sent } = hook({
				parameters: inboundParams({ event: 'conversationEnded' }),
			});
			await expect(activate(context)).resolves.toBe('created');
			const secret = secretOf(staticData);
			expect(requestLines(sent)).toEqual([
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
			expect(requestLines(sent)).toEqual([
				`GET ${LIST} page=1`,
				`POST ${DISABLE_CHAT} {"assistant_id":12}`,
			]);
			expect(svc.assistants[0].conversation_ended_webhook_url).toBeNull();
		});
	});

	describe('the probe answered by webhook()', () => {
		it('with the secret: 200 "live" and the give-back list sealed (webhookProbe.test.ts), and no execution', async () => {
			const { result, response } = await probeRegistered();
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response.statusCode).toBe(200);
			const body = response.body as IDataObject;
			expect(body.voiceChatAssistantTrigger).toBe('live');
			expect(openTargets(body.sealedGiveBack, `Bearer ${TEST_API_KEY}`, 12)).toEqual([
				{ url: CRM, active: true },
			]);
		});

		it('without the right secret or for an assistant not registered: 404, and nothing is revealed', async () => {
			for (const query of [
				{ secret: 'WrongSecretWrongSecretWrongSecre' },
				{ assistant_id: '34' },
			]) {
				const { result, response } = await probeRegistered(query);
				expect(result).toEqual({ noWebhookResponse: true });
				expect(response.statusCode).toBe(404);
				expect(JSON.stringify(response.body)).not.toContain('crm');
				nock.cleanAll();
			}
		});
	});
});
