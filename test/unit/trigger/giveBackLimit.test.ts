/**
 * The bound on what the webhook trigger keeps to give back (docs/triggers/README.md,
 * Webhook trigger limits): per assistant, the earlier webhooks of a chain of
 * workflows taking over one another are kept up to MAX_GIVE_BACK; the ones
 * further back are not kept, not told to the next trigger, and not given back.
 */
import type { IDataObject } from 'n8n-workflow';

import { openTargets } from '../../../nodes/VoiceChatAssistantTrigger/calls/ownership';
import { MAX_GIVE_BACK } from '../../../nodes/VoiceChatAssistantTrigger/calls/registration';
import { TEST_API_KEY } from '../../helpers/context';
import { activate, createWebhookContext, requestLines } from '../../helpers/hookContext';
import { trigger, triggerMethods as methods } from '../../helpers/registeredTrigger';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import {
	LIST,
	ENABLE_INBOUND,
	DISABLE_INBOUND,
	CRM,
	OTHER,
	assistant,
	service,
	inboundParams,
	hook,
	registration,
	secretOf,
	ourUrl,
	serviceWithOther,
} from './webhookLifecycle';

/** Trigger `i` of the chain: its own workflow and webhook on this n8n. */
function chainLink(i: number) {
	const webhookId = `chain-${i}-webhook-id`;
	const options = {
		parameters: inboundParams(),
		webhookUrl: `https://n8n.example.com/webhook/${webhookId}/webhook`,
		node: { webhookId },
		workflowId: `wf-chain-${i}`,
	};
	const ctx = hook(options);
	return { ...ctx, options, url: () => ourUrl(ctx.staticData, 12, options.webhookUrl) };
}

/** The URLs an activation kept to give back for assistant 12, nearest first. */
const kept = (staticData: IDataObject) =>
	((registration(staticData).assistants as IDataObject[])[0].giveBack as IDataObject[]).map(
		(target) => target.url,
	);

describe(`Voice Chat Assistant Trigger: at most ${MAX_GIVE_BACK} earlier webhooks kept to give back`, () => {
	fakeClockPerTest();

	it(`a chain of ${MAX_GIVE_BACK + 1} workflows taking over from a CRM: the last keeps the ${MAX_GIVE_BACK} nearest, the CRM further back is not given back`, async () => {
		const svc = service([assistant(12, { inbound_webhook_url: CRM })]);
		const links = Array.from({ length: MAX_GIVE_BACK + 1 }, (_, i) => chainLink(i));
		for (const link of links) {
			await activate(link.context);
			// live: it answers the next trigger's probe with what it keeps (sealed), as webhook() does
			svc.live.set(
				link.url(),
				kept(link.staticData).map((url) => ({ url, active: true })),
			);
		}
		const urls = links.map((link) => link.url());
		expect(svc.assistants[0].inbound_webhook_url).toBe(urls[MAX_GIVE_BACK]);
		// the one before the last keeps the whole chain: its predecessors and the CRM
		const beforeLast = links[MAX_GIVE_BACK - 1];
		expect(kept(beforeLast.staticData)).toEqual([
			...urls.slice(0, MAX_GIVE_BACK - 1).reverse(),
			CRM,
		]);
		// the last keeps its nearest: the CRM, one further back, is dropped
		const last = links[MAX_GIVE_BACK];
		expect(kept(last.staticData)).toEqual(urls.slice(0, MAX_GIVE_BACK).reverse());

		// what the last tells a probe is the same list
		const probe = createWebhookContext({
			...last.options,
			staticData: last.staticData,
			query: { assistant_id: '12', secret: secretOf(last.staticData) },
			headers: { 'x-voice-chat-assistant-probe': '1' },
			body: {},
		});
		await trigger.webhook.call(probe.context);
		const sealed = (probe.response.body as IDataObject).sealedGiveBack;
		const told = openTargets(sealed, `Bearer ${TEST_API_KEY}`, 12)?.map((target) => target.url);
		expect(told).toEqual(urls.slice(0, MAX_GIVE_BACK).reverse());

		// all earlier workflows deactivated, then the last: each one kept is asked, none is live;
		// the CRM is not given back, the webhook is switched off
		const beforeLastData = JSON.parse(JSON.stringify(beforeLast.staticData)) as IDataObject;
		svc.live.clear();
		last.sent.length = 0;
		await expect(methods.delete.call(last.context)).resolves.toBe(true);
		expect(requestLines(last.sent)).toEqual([
			`GET ${LIST} page=1`,
			...urls
				.slice(0, MAX_GIVE_BACK)
				.reverse()
				.map((url) => `PROBE ${url}`),
			`POST ${DISABLE_INBOUND} {"assistant_id":12}`,
		]);
		expect(svc.assistants[0].inbound_webhook_url).toBeNull();

		// the same removal one link earlier (the CRM the furthest kept) gives the CRM back
		svc.assistants[0].inbound_webhook_url = urls[MAX_GIVE_BACK - 1];
		const again = hook({ ...beforeLast.options, staticData: beforeLastData });
		await expect(methods.delete.call(again.context)).resolves.toBe(true);
		expect(requestLines(again.sent)).toEqual([
			`GET ${LIST} page=1`,
			...urls
				.slice(0, MAX_GIVE_BACK - 1)
				.reverse()
				.map((url) => `PROBE ${url}`),
			`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${CRM}"}`,
		]);
		expect(svc.assistants[0].inbound_webhook_url).toBe(CRM);
	});

	it(`a live trigger that tells more than ${MAX_GIVE_BACK - 1} earlier webhooks: it and its nearest ${MAX_GIVE_BACK - 1} are kept`, async () => {
		const told = Array.from({ length: MAX_GIVE_BACK + 3 }, (_, i) => ({
			url: `https://crm.example.com/hook?token=crm-${i}`,
			active: true,
		}));
		serviceWithOther(told);
		const { context, staticData, sent } = hook({ parameters: inboundParams() });
		await activate(context);
		expect(requestLines(sent).slice(0, 2)).toEqual([`GET ${LIST} page=1`, `PROBE ${OTHER}`]);
		expect(kept(staticData)).toEqual([
			OTHER,
			...told.slice(0, MAX_GIVE_BACK - 1).map((target) => target.url),
		]);
	});
});
