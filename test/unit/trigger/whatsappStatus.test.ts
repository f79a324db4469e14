/**
 * The "WhatsApp Message Status" event: the signature is checked over the
 * exact bytes n8n received (also when a parsed and re-serialised body would
 * differ), a post without or with a wrong signature is answered 401 and starts
 * nothing, the filters (statuses, senders), the dashboard's test events, one
 * execution per redelivered status, and the lifecycle that asks the service
 * for nothing. The secret comes from the node's signing credential
 * (whatsappSecret.test.ts); the window of a post's `timestamp`:
 * whatsappTime.test.ts.
 */
import * as crypto from 'crypto';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import {
	SIGNATURE_HEADER,
	signatureValid,
} from '../../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappStatus';
import { createWebhookContext, firstOutput } from '../../helpers/hookContext';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { trigger, triggerMethods as methods } from '../../helpers/registeredTrigger';
import {
	EVENT,
	NOW,
	SECRET,
	activation,
	post,
	receipt,
	sign,
	signingCredential,
} from './whatsappPost';

// the real comparison, watched: which buffers the node compares
jest.mock('crypto', () => {
	const actual = jest.requireActual('crypto');
	return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});

// n8n's clock: the receipts arrive 2 s after their `timestamp` (whatsappTime.test.ts: the window)
fakeClockPerTest(NOW);

beforeEach(() => forgetProcess());

describe('WhatsApp Message Status: the signature over the exact bytes', () => {
	it('starts the workflow for a correctly signed post, with the posted status as the item', async () => {
		const { result, response, items, sent } = await post(receipt());
		expect(response.statusCode).toBe(200);
		expect(response.body).toEqual({ received: true });
		expect(result.noWebhookResponse).toBe(true);
		expect(items).toEqual([{ ...receipt(), test: false }]);
		expect(sent).toEqual([]);
	});

	it.each([
		[
			'indented, keys in another order',
			(p: IDataObject) => JSON.stringify(Object.fromEntries(Object.entries(p).reverse()), null, 2),
		],
		[
			'PHP-style escapes (\\/ and \\u00fc)',
			(p: IDataObject) =>
				JSON.stringify(p)
					.replace(/\//g, '\\/')
					.replace(
						/[\u0080-\uffff]/g,
						(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
					),
		],
		[
			'a byte order mark and a trailing newline',
			(p: IDataObject) => `\ufeff${JSON.stringify(p)}\n`,
		],
	])('verifies a body that n8n would write differently: %s', async (_label, write) => {
		const payload = receipt({
			sender: { id: 1, phone_number: '+4930555000100', display_name: 'Müller & Söhne / Support' },
		});
		const raw = Buffer.from(write(payload), 'utf8');
		// what n8n's JSON body would give when written again is not what was signed
		const reserialised = Buffer.from(
			JSON.stringify(JSON.parse(raw.toString('utf8').replace(/^\ufeff/, ''))),
		);
		expect(reserialised.equals(raw)).toBe(false);
		expect(signatureValid(reserialised, sign(raw), SECRET)).toBe(false);

		const { response, items } = await post(payload, {
			raw,
			body: JSON.parse(raw.toString('utf8').replace(/^\ufeff/, '')),
		});
		expect(response.statusCode).toBe(200);
		expect(items).toHaveLength(1);
		expect((items[0].sender as IDataObject).display_name).toBe('Müller & Söhne / Support');
	});

	it('builds the item from the verified bytes, not from a body parsed elsewhere', async () => {
		const raw = Buffer.from(JSON.stringify(receipt({ status: 'delivered' })));
		const { items } = await post(receipt(), {
			raw,
			body: receipt({ status: 'read', to: '+1000' }),
		});
		expect(items.map((i) => [i.status, i.to])).toEqual([['delivered', '+4915112345678']]);
	});

	it('reads the raw body itself when n8n has not read it yet', async () => {
		const raw = Buffer.from(JSON.stringify(receipt()));
		const ctx = createWebhookContext({
			parameters: { event: EVENT },
			otherCredentials: signingCredential(),
			body: {},
			headers: { [SIGNATURE_HEADER]: sign(raw) },
		});
		const request = ctx.context.getRequestObject() as unknown as IDataObject;
		let reads = 0;
		request.readRawBody = async () => {
			reads++;
			request.rawBody = raw;
		};
		const result = await trigger.webhook.call(ctx.context);
		expect(reads).toBe(1);
		expect(ctx.response.statusCode).toBe(200);
		expect(firstOutput(result.workflowData)).toHaveLength(1);
	});

	it.each([
		['no signature header', null, 'it has no X-Signature-256 header'],
		['a signature made with another secret', 'other', 'its signature is wrong'],
		['the signature of other bytes', 'otherBytes', 'its signature is wrong'],
		['a bare hex digest without "sha256="', 'bare', 'its signature is wrong'],
		['a truncated digest', 'short', 'its signature is wrong'],
		['an empty header', '', 'its signature is wrong'],
	])('answers 401 and starts nothing for %s', async (_label, kind, why) => {
		const raw = Buffer.from(JSON.stringify(receipt()));
		const right = sign(raw);
		const signature =
			kind === null
				? null
				: kind === 'other'
					? sign(raw, `${SECRET}x`)
					: kind === 'otherBytes'
						? sign(Buffer.from(JSON.stringify(receipt({ status: 'failed' }))))
						: kind === 'bare'
							? right.slice('sha256='.length)
							: kind === 'short'
								? right.slice(0, -2)
								: '';
		const { result, response, logs } = await post(receipt(), { raw, signature });
		expect(response.statusCode).toBe(401);
		expect(response.body).toEqual({ message: 'Unauthorized' });
		expect(result).toEqual({ noWebhookResponse: true });
		const warnings = logs.filter((l) => l.level === 'warn').map((l) => l.message);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain('message 4711');
		expect(warnings[0]).toContain(why);
		expect(JSON.stringify({ logs, body: response.body })).not.toContain(SECRET);
	});

	it('answers 503 when n8n kept no raw body: it cannot be verified now, and the service retries a 5xx (a 401 it does not)', async () => {
		const ctx = createWebhookContext({
			parameters: { event: EVENT },
			otherCredentials: signingCredential(),
			body: receipt(),
			headers: { [SIGNATURE_HEADER]: sign(Buffer.from(JSON.stringify(receipt()))) },
		});
		const result = await trigger.webhook.call(ctx.context);
		expect(ctx.response.statusCode).toBe(503);
		expect(result.workflowData).toBeUndefined();
	});

	it('compares in constant time: equal-length buffers, also for a malformed header', () => {
		const spy = crypto.timingSafeEqual as unknown as jest.Mock;
		spy.mockClear();
		const raw = Buffer.from('{"status":"read"}');
		expect(signatureValid(raw, sign(raw), SECRET)).toBe(true);
		expect(signatureValid(raw, sign(raw).toUpperCase().replace('SHA256=', 'sha256='), SECRET)).toBe(
			true,
		);
		expect(signatureValid(raw, 'sha256=abc', SECRET)).toBe(false);
		expect(signatureValid(raw, [sign(raw)], SECRET)).toBe(true);
		expect(spy).toHaveBeenCalledTimes(4);
		for (const [a, b] of spy.mock.calls) {
			expect((a as Buffer).length).toBe(32);
			expect((b as Buffer).length).toBe(32);
		}
	});

	it('answers 400 for a signed body that is not a JSON object, and starts nothing', async () => {
		const raw = Buffer.from('["not", "an", "object"]');
		const { response, result } = await post({}, { raw, body: [] });
		expect(response.statusCode).toBe(400);
		expect(result.workflowData).toBeUndefined();
	});
});

describe('WhatsApp Message Status: filters and test events', () => {
	it('starts only for the chosen statuses; the others are answered 200 and start nothing', async () => {
		const parameters = { messageStatuses: ['read', 'failed'] };
		const delivered = await post(receipt({ status: 'delivered' }), { parameters });
		expect(delivered.response.statusCode).toBe(200);
		expect(delivered.response.body).toEqual({
			received: true,
			ignored: true,
			reason: 'status "delivered" is not one this workflow listens to',
		});
		expect(delivered.result.workflowData).toBeUndefined();
		const read = await post(receipt({ status: 'read' }), { parameters });
		const failed = await post(receipt({ status: 'failed', error_code: '131026' }), { parameters });
		expect([...read.items, ...failed.items].map((i) => i.status)).toEqual(['read', 'failed']);
	});

	it.each([
		['+4930555000100', true],
		['+49 30 555000-100', true],
		['004930555000100', true],
		['1', true],
		['2, +4930555000200', false],
		['2, 1', true],
	])(
		'Senders "%s" lets a post of sender 1 (+4930555000100) through: %s',
		async (senders, passes) => {
			const { items, response } = await post(receipt(), { parameters: { senders } });
			expect(response.statusCode).toBe(200);
			expect(items).toHaveLength(passes ? 1 : 0);
		},
	);

	it('ignores a dashboard test event in the active workflow unless "Include Dashboard Test Events" is on', async () => {
		const test = receipt({ test: true });
		const off = await post(test);
		expect(off.items).toEqual([]);
		expect((off.response.body as IDataObject).ignored).toBe(true);
		const on = await post(test, { parameters: { options: { includeTestEvents: true } } });
		expect(on.items).toHaveLength(1);
		expect(on.items[0].test).toBe(true);
	});

	it('lets a dashboard test event through while listening for a test event', async () => {
		const { items } = await post(receipt({ test: true }), { mode: 'manual' });
		expect(items).toHaveLength(1);
		expect(items[0].test).toBe(true);
	});

	it('ignores another kind of event', async () => {
		const { items, response } = await post(receipt({ event: 'message_received' }));
		expect(items).toEqual([]);
		expect(response.body).toEqual({
			received: true,
			ignored: true,
			reason: 'event "message_received" is not a message status',
		});
	});
});

describe('WhatsApp Message Status: redeliveries', () => {
	it('starts the workflow once for a redelivered status; a new status of the same message starts it again', async () => {
		const raw = Buffer.from(JSON.stringify(receipt({ status: 'delivered' })));
		const first = await post(receipt(), { raw });
		const again = await post(receipt(), { raw });
		expect(first.items).toHaveLength(1);
		expect(again.items).toEqual([]);
		expect(again.response.statusCode).toBe(200);
		expect(again.response.body).toEqual({ received: true, duplicate: true });
		const read = await post(receipt({ status: 'read' }));
		expect(read.items).toHaveLength(1);
	});

	it('keeps the memory per workflow: the same status starts another workflow once too', async () => {
		expect((await post(receipt(), { workflowId: 'wf-a' })).items).toHaveLength(1);
		expect((await post(receipt(), { workflowId: 'wf-b' })).items).toHaveLength(1);
		expect((await post(receipt(), { workflowId: 'wf-a' })).items).toEqual([]);
	});

	it('does not take a refused post for a delivery: the correctly signed redelivery starts the workflow', async () => {
		const unsigned = await post(receipt(), { signature: null });
		expect(unsigned.response.statusCode).toBe(401);
		expect((await post(receipt())).items).toHaveLength(1);
	});
});

describe('WhatsApp Message Status: the form and the lifecycle', () => {
	it('registers nothing at the service: activation and deactivation send no request', async () => {
		nock.disableNetConnect();
		const hook = activation();
		expect(await methods.checkExists.call(hook.context)).toBe(false);
		expect(await methods.create.call(hook.context)).toBe(true);
		expect(await methods.delete.call(hook.context)).toBe(true);
		expect(hook.sent).toEqual([]);
		expect(hook.logs.filter((l) => l.level === 'warn')).toEqual([]);
	});

	it.each([
		[{ messageStatuses: ['seen'] }, 'Statuses: "seen" is not a WhatsApp message status'],
		[
			{ senders: '+4930555000100, acme' },
			'Senders: "acme" is neither a sender ID nor a phone number',
		],
	])('refuses to activate with a bad field (%j), naming it', async (fields, message) => {
		const hook = activation(fields);
		await expect(methods.create.call(hook.context)).rejects.toThrow(message);
		expect(hook.sent).toEqual([]);
	});

	it('answers 500 (the service retries) and logs, without the secret, when a field is bad', async () => {
		const { response, result, logs } = await post(receipt(), {
			parameters: { messageStatuses: ['seen'] },
		});
		expect(response.statusCode).toBe(500);
		expect(response.body).toEqual({
			message: 'The workflow is not set up: Statuses: "seen" is not a WhatsApp message status',
		});
		expect(result.workflowData).toBeUndefined();
		expect(logs.some((l) => l.level === 'warn' && l.message.includes('Statuses: "seen"'))).toBe(
			true,
		);
		expect(JSON.stringify({ logs, body: response.body })).not.toContain(SECRET);
	});

	it('shows its fields only for the event, and hides the assistant fields there', () => {
		const props = trigger.description.properties;
		const byName = (name: string) => props.filter((p) => p.name === name);
		for (const name of ['messageStatuses', 'senders', 'whatsappStatusNotice']) {
			expect(byName(name)[0].displayOptions).toEqual({ show: { event: [EVENT] } });
		}
		for (const name of ['assistantId', 'additionalAssistants', 'existingWebhook', 'verifySecret']) {
			expect(byName(name)[0].displayOptions?.show?.event).not.toContain(EVENT);
		}
		const options = props.find((p) => p.name === 'options')!;
		const include = (options.options as unknown as IDataObject[]).find(
			(o) => o.name === 'includeTestEvents',
		)!;
		expect(include.displayOptions).toEqual({ show: { '/event': [EVENT] } });
		expect(trigger.description.subtitle).toContain(`"${EVENT}" ? "WhatsApp message status"`);
	});
});
