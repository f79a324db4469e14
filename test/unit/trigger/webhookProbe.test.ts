/**
 * The liveness probe between triggers: it follows no redirect (a redirect is
 * "not live", and the host it points to is never asked), and a live
 * trigger's answer shows no URL: what it would give back comes sealed under a
 * key of the credential's API key, which only a trigger with that key opens.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { openTargets, sealTargets } from '../../../nodes/VoiceChatAssistantTrigger/calls/ownership';
import { TEST_API_KEY } from '../../helpers/context';
import { activate, requestLines } from '../../helpers/hookContext';
import { triggerMethods as methods } from '../../helpers/registeredTrigger';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import {
	LIST,
	ENABLE_INBOUND,
	CRM,
	OTHER,
	service,
	inboundParams,
	hook,
	registration,
	serviceWithOther,
	probeOtherThenEnable,
	probeRegistered,
} from './webhookLifecycle';

const AUTHORIZATION = `Bearer ${TEST_API_KEY}`;
const ATTACKER = 'https://attacker.example/collect?token=stolen';
const OTHER_PATH = OTHER.slice('https://n8n.example.com'.length);

/** OTHER answers its probe with a redirect to a host that would answer "live" with a planted target. */
function redirectingOther(status: number) {
	const elsewhere = nock('https://elsewhere.example')
		.post(/.*/)
		.reply(200, {
			voiceChatAssistantTrigger: 'live',
			sealedGiveBack: sealTargets([{ url: ATTACKER, active: true }], AUTHORIZATION, 12),
		});
	nock('https://n8n.example.com')
		.post(OTHER_PATH)
		.reply(status, '', { Location: 'https://elsewhere.example/hook' });
	return elsewhere;
}

describe('Voice Chat Assistant Trigger: the probe between triggers', () => {
	fakeClockPerTest();

	describe('no redirects', () => {
		it.each([301, 302, 307, 308])(
			'taking over from a trigger URL answered with %s: not live, not saved, and the redirect target is never asked',
			async (status) => {
				const elsewhere = redirectingOther(status);
				serviceWithOther();
				const { context, staticData, sent, logs } = hook({ parameters: inboundParams() });
				await activate(context);
				expect(requestLines(sent)).toEqual([
					`GET ${LIST} page=1`,
					`PROBE ${OTHER}`,
					expect.stringMatching(new RegExp(`^POST ${ENABLE_INBOUND} `)),
				]);
				expect(elsewhere.isDone()).toBe(false);
				expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([]);
				expect(logs).toContainEqual({
					level: 'debug',
					message: `Voice Chat Assistant Trigger: probe of n8n.example.com: a redirect (HTTP ${status}), not followed: not live`,
				});
				expect(JSON.stringify(logs)).not.toContain('OtherSecret');
			},
		);

		it('giving back: a saved trigger URL answered with a redirect is skipped for the next target', async () => {
			const svc = serviceWithOther([{ url: CRM, active: true }]);
			const { context, sent } = hook({ parameters: inboundParams() });
			await activate(context);
			// OTHER now answers with a redirect to a host that would answer "live"
			nock.cleanAll();
			const elsewhere = redirectingOther(307);
			service(svc.assistants);
			sent.length = 0;
			await methods.delete.call(context);
			expect(requestLines(sent)).toEqual(probeOtherThenEnable(CRM));
			expect(elsewhere.isDone()).toBe(false);
			expect(svc.assistants[0].inbound_webhook_url).toBe(CRM);
		});
	});

	describe('the answer shows no URL', () => {
		it('200 "live" and the give-back list sealed: no URL, token or host in the answer', async () => {
			const { result, response } = await probeRegistered();
			expect(result).toEqual({ noWebhookResponse: true });
			expect(response.statusCode).toBe(200);
			const body = response.body as IDataObject;
			expect(Object.keys(body).sort()).toEqual(['sealedGiveBack', 'voiceChatAssistantTrigger']);
			expect(body.voiceChatAssistantTrigger).toBe('live');
			expect(body.sealedGiveBack).toMatch(/^[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
			const text = JSON.stringify(body);
			for (const part of ['http', 'crm', 'token', TEST_API_KEY]) expect(text).not.toContain(part);
			// a trigger with the same API key opens it
			expect(openTargets(body.sealedGiveBack, AUTHORIZATION, 12)).toEqual([
				{ url: CRM, active: true },
			]);
		});

		it('the sealed list opens only with the same API key, for the same assistant, unaltered', async () => {
			const { response } = await probeRegistered();
			const sealed = String((response.body as IDataObject).sealedGiveBack);
			expect(openTargets(sealed, 'Bearer another-key', 12)).toBeUndefined();
			expect(openTargets(sealed, AUTHORIZATION, 34)).toBeUndefined();
			const [iv, data, tag] = sealed.split('.');
			const flipped = `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`;
			expect(openTargets(`${iv}.${flipped}.${tag}`, AUTHORIZATION, 12)).toBeUndefined();
			expect(openTargets('not sealed', AUTHORIZATION, 12)).toBeUndefined();
			expect(openTargets(undefined, AUTHORIZATION, 12)).toBeUndefined();
		});

		it('a live trigger whose list is sealed with another API key is saved without its list, and the log says why naming only the host', async () => {
			nock('https://n8n.example.com')
				.post(OTHER_PATH)
				.reply(200, {
					voiceChatAssistantTrigger: 'live',
					sealedGiveBack: sealTargets([{ url: CRM, active: true }], 'Bearer another-key', 12),
				});
			serviceWithOther();
			const { context, staticData, logs } = hook({ parameters: inboundParams() });
			await activate(context);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{ url: OTHER, active: true },
			]);
			const warnings = logs.filter((l) => l.level === 'warn').map((l) => l.message);
			expect(warnings).toEqual([
				'Voice Chat Assistant Trigger: probe of n8n.example.com: live, but what it would give back is sealed with another API key and is not kept; if that workflow is deactivated before this one, its earlier webhook is not restored',
			]);
		});

		it('an answer with the list in clear text (not sealed) is not taken: nothing planted that way', async () => {
			nock('https://n8n.example.com')
				.post(OTHER_PATH)
				.reply(200, {
					voiceChatAssistantTrigger: 'live',
					giveBack: [{ url: ATTACKER, active: true }],
				});
			serviceWithOther();
			const { context, staticData } = hook({ parameters: inboundParams() });
			await activate(context);
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{ url: OTHER, active: true },
			]);
		});
	});
});
