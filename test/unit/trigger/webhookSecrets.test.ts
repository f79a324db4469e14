/**
 * The webhook trigger's secrets under n8n's real saving: n8n saves a webhook
 * request's static data whole (last save wins), a publish is delete + create,
 * and n8n saves nothing of a create that throws (it then runs delete with
 * the static data it saved last). `db` below is what n8n holds; each hook or
 * request works on a copy of it, and what n8n would save is copied back.
 */
import nock from 'nock';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';
import type { IDataObject } from 'n8n-workflow';

import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { PRODUCTION_URL, activate, answerAsN8n } from '../../helpers/hookContext';
import { trigger, triggerMethods as methods } from '../../helpers/registeredTrigger';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import {
	CRM,
	ENABLE_INBOUND,
	SECRET,
	assistant,
	hook,
	inboundParams,
	ourUrl,
	secretOf,
	service,
	watched,
} from './webhookLifecycle';
import type { Assistant } from './webhookLifecycle';

const copy = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;

let call = 9000;

/** One delivery to `url` with the static data n8n loads for it; its status code and the data it would save. */
async function deliver(
	url: string,
	staticData: IDataObject,
	credentials?: { apiKey: string },
	parameters?: IDataObject,
) {
	const query = Object.fromEntries(new URL(url).searchParams);
	const { context, response } = watched.webhookContext({
		staticData,
		query,
		credentials,
		parameters,
		body: { id: ++call, status: 'completed', customer_phone: '+4915112345678' },
	});
	answerAsN8n(await trigger.webhook.call(context), response);
	return { status: response.statusCode, saved: copy(staticData) };
}

/** What n8n's publish does when the trigger node changed: delete, then checkExists and create, each saved. */
async function publish(db: IDataObject): Promise<IDataObject> {
	const removal = hook({ parameters: inboundParams(), staticData: copy(db) });
	await methods.delete.call(removal.context);
	const added = hook({ parameters: inboundParams(), staticData: copy(removal.staticData) });
	await activate(added.context);
	return copy(added.staticData);
}

describe('Voice Chat Assistant Trigger: secrets that survive publishes and stale saves', () => {
	fakeClockPerTest();
	beforeEach(() => forgetProcess());

	it('a publish while a delivery waits: the delivery saves the old static data last, and later deliveries are still accepted', async () => {
		const svc = service([assistant(12, { inbound_webhook_url: CRM })]);
		const first = hook({ parameters: inboundParams() });
		await activate(first.context);
		let db = copy(first.staticData);
		// a delivery starts with the static data of now and is slow (a recording download, a list read)
		const slow = copy(db);
		db = await publish(db);
		const held = svc.assistants[0].inbound_webhook_url as string;
		expect(held).toBe(ourUrl(db));
		// the slow delivery ends: n8n saves its static data whole, over the publish's
		db = (await deliver(ourUrl(slow), slow)).saved;
		const statuses: Array<number | undefined> = [];
		for (let i = 0; i < 3; i++) {
			const { status, saved } = await deliver(held, db);
			statuses.push(status);
			db = saved;
		}
		expect(statuses).toEqual([200, 200, 200]);
	});

	it('a publish registers the same URL, so a delivery sent with the URL of before the swap is accepted', async () => {
		const svc = service([assistant(12, { inbound_webhook_url: CRM })]);
		const first = hook({ parameters: inboundParams() });
		await activate(first.context);
		const before = svc.assistants[0].inbound_webhook_url as string;
		const db = await publish(copy(first.staticData));
		expect(svc.assistants[0].inbound_webhook_url).toBe(before);
		expect(secretOf(db)).toMatch(SECRET);
		expect((await deliver(before, db)).status).toBe(200);
	});

	it('a registration saved by an earlier version (a random secret) keeps working, and a restart registers nothing again', async () => {
		const old = `${PRODUCTION_URL}?assistant_id=12&secret=EarlierRandomSecretEarlierRandom`;
		service([assistant(12, { inbound_webhook_url: old })]);
		const db: IDataObject = {
			registration: {
				event: 'inboundCallCompleted',
				webhookUrl: PRODUCTION_URL,
				assistants: [
					{ id: 12, url: old, secret: 'EarlierRandomSecretEarlierRandom', giveBack: [] },
				],
			},
		};
		const restart = hook({ parameters: inboundParams(), staticData: copy(db) });
		await expect(activate(restart.context)).resolves.toBe('existed');
		expect((await deliver(old, copy(db))).status).toBe(200);
	});

	it('only the derived secret of a watched assistant, with this API key, passes besides the stored one', async () => {
		const svc = service([
			assistant(12, { inbound_webhook_url: CRM }),
			assistant(34, { inbound_webhook_url: CRM }),
		]);
		const first = hook({ parameters: inboundParams() });
		await activate(first.context);
		const url = svc.assistants[0].inbound_webhook_url as string;
		const secret = new URL(url).searchParams.get('secret') as string;
		// the static data lost the registration (a save from before the activation): still accepted
		expect((await deliver(url, {})).status).toBe(200);
		// another API key in the credential derives other secrets (what rotates them)
		expect((await deliver(url, {}, { apiKey: 'another-api-key-0123456789' })).status).toBe(401);
		// the secret of assistant 12 does not pass for assistant 34, nor for an assistant not watched
		const for34 = `${PRODUCTION_URL}?assistant_id=34&secret=${secret}`;
		expect((await deliver(for34, {})).status).toBe(401);
		expect((await deliver(`${PRODUCTION_URL}?assistant_id=99&secret=${secret}`, {})).status).toBe(
			401,
		);
		expect((await deliver(`${PRODUCTION_URL}?assistant_id=12&secret=`, {})).status).toBe(401);
	});

	it('a leaked URL is revoked by raising Options → URL Secret Version: the publish registers a new URL, the old one is refused (401), the new one accepted; version 1 keeps the URLs of before', async () => {
		const svc = service([assistant(12, { inbound_webhook_url: CRM })]);
		const first = hook({ parameters: inboundParams() });
		await activate(first.context);
		const leaked = svc.assistants[0].inbound_webhook_url as string;
		let db = copy(first.staticData);
		// version 1 set by hand is the default: nothing registered again
		const same = hook({
			parameters: inboundParams({ options: { urlSecretVersion: 1 } }),
			staticData: copy(db),
		});
		await expect(activate(same.context)).resolves.toBe('existed');
		// raised to 2 and published (n8n: checkExists, then create)
		const raised = inboundParams({ options: { urlSecretVersion: 2 } });
		const publish2 = hook({ parameters: raised, staticData: copy(db) });
		await expect(activate(publish2.context)).resolves.toBe('created');
		db = copy(publish2.staticData);
		const fresh = svc.assistants[0].inbound_webhook_url as string;
		expect(secretOf(db)).toMatch(SECRET);
		expect(new URL(fresh).searchParams.get('secret')).not.toBe(
			new URL(leaked).searchParams.get('secret'),
		);
		expect((await deliver(leaked, copy(db), undefined, raised)).status).toBe(401);
		expect((await deliver(leaked, {}, undefined, raised)).status).toBe(401);
		expect((await deliver(fresh, copy(db), undefined, raised)).status).toBe(200);
		// a restart with version 2 registers nothing again
		const restart = hook({ parameters: raised, staticData: copy(db) });
		await expect(activate(restart.context)).resolves.toBe('existed');
	});

	it('a new API key in the credential: the registered URL keeps working while its registration is stored (until the workflow is activated again); the new key derives another secret', async () => {
		const svc = service([assistant(12, { inbound_webhook_url: CRM })]);
		const first = hook({ parameters: inboundParams() });
		await activate(first.context);
		const old = svc.assistants[0].inbound_webhook_url as string;
		const db = copy(first.staticData);
		const newKey = { apiKey: 'a-new-api-key-0123456789' };
		expect((await deliver(old, copy(db), newKey)).status).toBe(200);
		// without the stored registration only the new key's secret would pass
		expect((await deliver(old, {}, newKey)).status).toBe(401);
	});

	it('n8n gives no webhook URL: the activation fails, saying so, before any request', async () => {
		const noUrl = hook({ parameters: inboundParams(), webhookUrl: '' });
		await expect(activate(noUrl.context)).rejects.toThrow(
			'n8n did not provide a webhook URL for this trigger',
		);
		expect(noUrl.sent).toEqual([]);
	});

	describe('a create that fails midway and cannot give back', () => {
		/** Assistant 12 posts to the CRM; registering assistant 34 fails; while `down`, giving the CRM back fails. */
		function failingService() {
			const state = { down: true };
			const assistants: Assistant[] = [assistant(12, { inbound_webhook_url: CRM }), assistant(34)];
			nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
				.persist()
				.post(
					ENABLE_INBOUND,
					(body: IDataObject) =>
						(state.down && body.webhook_url === CRM) || body.assistant_id === 34,
				)
				.reply(422, { message: 'The given data was invalid.' });
			service(assistants);
			return { state, assistants };
		}
		const both = () =>
			inboundParams({
				additionalAssistants: { assistant: [{ assistantId: { mode: 'id', value: '34' } }] },
			});

		it('the delete n8n runs next (with the static data saved before) gives the previous webhook back', async () => {
			const { state, assistants } = failingService();
			const db: IDataObject = {};
			const create = hook({ parameters: both(), staticData: copy(db) });
			await expect(methods.create.call(create.context)).rejects.toThrow(
				'Registering the webhook for assistant 34 failed',
			);
			const held = assistants[0].inbound_webhook_url as string;
			expect(held).not.toBe(CRM);
			// the URL left on the assistant verifies without any saved registration
			expect((await deliver(held, copy(db))).status).toBe(200);
			state.down = false;
			const cleared = hook({ parameters: both(), staticData: copy(db) });
			await expect(methods.delete.call(cleared.context)).resolves.toBe(true);
			expect(assistants[0].inbound_webhook_url).toBe(CRM);
		});

		it('when that delete cannot give it back either, n8n saves it with the static data and a later removal gives it back', async () => {
			const { state, assistants } = failingService();
			let db: IDataObject = {};
			const create = hook({ parameters: both(), staticData: copy(db) });
			await expect(methods.create.call(create.context)).rejects.toThrow(
				'Registering the webhook for assistant 34 failed',
			);
			const cleared = hook({ parameters: both(), staticData: copy(db) });
			await expect(methods.delete.call(cleared.context)).resolves.toBe(false);
			// n8n saves the static data after delete
			db = copy(cleared.staticData);
			expect(db.registration).toMatchObject({
				assistants: [{ id: 12, giveBack: [{ url: CRM, active: true }] }],
			});
			state.down = false;
			const later = hook({ parameters: inboundParams(), staticData: copy(db) });
			await activate(later.context);
			await expect(methods.delete.call(later.context)).resolves.toBe(true);
			expect(assistants[0].inbound_webhook_url).toBe(CRM);
			expect(cleared.logs.map((l) => l.message).join('\n')).not.toContain(TEST_API_KEY);
		});
	});

	afterEach(() => nock.cleanAll());
});
