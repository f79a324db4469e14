/**
 * A signed read receipt is good for the service's retries plus a margin, not
 * forever: its `timestamp` (inside the signed bytes) may be up to 8.5 minutes
 * old (the retries after 30, 60 and 120 s end 210 s after it, plus 5 minutes)
 * and up to 5 minutes ahead of n8n's clock (skew). Older or further ahead: 401
 * and nothing starts, also in a process that never saw the post (after a
 * restart); within the window a redelivery starts nothing (the replay
 * memory). n8n's clock is the injected fake clock: no test waits.
 */
import type { IDataObject } from 'n8n-workflow';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';

import {
	MAX_AGE_MS,
	MAX_AHEAD_MS,
	RETRY_SPAN_MS,
	duration,
	freshness,
	postTime,
} from '../../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappTime';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { RECEIPT_TIME, SECRET, post, receipt, warnings } from './whatsappPost';

const clock = fakeClockPerTest(RECEIPT_TIME);
beforeEach(() => forgetProcess());

/** A receipt whose `timestamp` is `offsetMs` from n8n's clock now (negative: in the past). */
function receiptAt(offsetMs: number, fields: IDataObject = {}): IDataObject {
	return receipt({ timestamp: new Date(clock.now() + offsetMs).toISOString(), ...fields });
}

describe('WhatsApp Message Status: the window of a signed post', () => {
	it("is the service's retry span (30 + 60 + 120 s) plus 5 minutes back, 5 minutes ahead", () => {
		expect(RETRY_SPAN_MS).toBe(210_000);
		expect(MAX_AGE_MS).toBe(510_000);
		expect(MAX_AHEAD_MS).toBe(300_000);
	});

	it('accepts a post up to 8.5 minutes old, and refuses it one second later', async () => {
		const edge = await post(receiptAt(-MAX_AGE_MS, { whatsapp_message_id: 1 }));
		expect(edge.response.statusCode).toBe(200);
		expect(edge.items).toHaveLength(1);
		const past = await post(receiptAt(-MAX_AGE_MS - 1000, { whatsapp_message_id: 2 }));
		expect(past.response.statusCode).toBe(401);
		expect(past.items).toEqual([]);
	});

	it("accepts a post up to 5 minutes ahead of n8n's clock, and refuses it one second further", async () => {
		const edge = await post(receiptAt(MAX_AHEAD_MS, { whatsapp_message_id: 1 }));
		expect(edge.response.statusCode).toBe(200);
		expect(edge.items).toHaveLength(1);
		const ahead = await post(receiptAt(MAX_AHEAD_MS + 1000, { whatsapp_message_id: 2 }));
		expect(ahead.response.statusCode).toBe(401);
		expect(ahead.items).toEqual([]);
	});

	it('refuses an old correctly signed post with 401, starting nothing, and says why in the log', async () => {
		const { response, result, logs } = await post(receiptAt(-7 * 24 * 3_600_000));
		expect(response.body).toEqual({ message: 'Unauthorized: "timestamp" is too old' });
		expect(result.workflowData).toBeUndefined();
		const [warning, ...more] = warnings(logs);
		expect(more).toEqual([]);
		expect(warning).toContain('refused a signed post for message 4711 (answered 401)');
		expect(warning).toContain(
			`its "timestamp" ${new Date(RECEIPT_TIME - 7 * 24 * 3_600_000).toISOString()} is 168 hours old`,
		);
		expect(warning).toContain('accepted from 8 minutes 30 seconds before to 5 minutes after');
		expect(JSON.stringify({ logs, body: response.body })).not.toContain(SECRET);
	});

	it('refuses a correctly signed post from the future with 401', async () => {
		const { response, result, logs } = await post(receiptAt(60 * 60_000));
		expect(response.body).toEqual({ message: 'Unauthorized: "timestamp" is in the future' });
		expect(result.workflowData).toBeUndefined();
		expect(warnings(logs)[0]).toContain("is 1 hour ahead of this n8n's clock");
	});

	it.each([
		['no timestamp', undefined],
		['null', null],
		['a word', 'yesterday'],
		['a date without a time', '2026-11-26'],
	])('answers 400 for a signed post with %s as "timestamp"', async (_label, timestamp) => {
		const { response, result, logs } = await post(receipt({ timestamp }));
		expect(response.statusCode).toBe(400);
		expect(response.body).toEqual({ message: 'Bad request: "timestamp" is missing or not a time' });
		expect(result.workflowData).toBeUndefined();
		expect(warnings(logs)[0]).toContain('(answered 400): its "timestamp"');
	});

	it("checks the dashboard's test events while listening too", async () => {
		const { response, items } = await post(receiptAt(-60 * 60_000, { test: true }), {
			mode: 'manual',
		});
		expect(response.statusCode).toBe(401);
		expect(items).toEqual([]);
	});
});

describe('WhatsApp Message Status: redeliveries within the window, replays after it', () => {
	it("starts once for the service's attempts at 0, 30, 90 and 210 s; the same bytes after the window are refused, also by a process that never saw them", async () => {
		const raw = Buffer.from(JSON.stringify(receiptAt(0)));
		const answers: unknown[] = [];
		let started = 0;
		for (const delay of [2_000, 30_000, 60_000, 120_000]) {
			clock.advance(delay);
			const { response, items } = await post(receipt(), { raw });
			answers.push(response.body);
			started += items.length;
		}
		expect(started).toBe(1);
		expect(answers).toEqual([
			{ received: true },
			{ received: true, duplicate: true },
			{ received: true, duplicate: true },
			{ received: true, duplicate: true },
		]);
		// a captured copy played back an hour later, to this process and to a fresh one (a restart)
		clock.advance(60 * 60_000);
		expect((await post(receipt(), { raw })).response.statusCode).toBe(401);
		forgetProcess();
		const replayed = await post(receipt(), { raw });
		expect(replayed.response.statusCode).toBe(401);
		expect(replayed.items).toEqual([]);
	});
});

describe('the timestamp of a post', () => {
	const at = Date.parse('2026-11-26T08:00:00.000Z');

	it.each([
		['2026-11-26T08:00:00.000Z', at],
		['2026-11-26T08:00:00Z', at],
		['2026-11-26T09:00:00+01:00', at],
		['2026-11-26T09:00:00.000+0100', at],
		['2026-11-26 08:00:00', at],
		['2026-11-26T08:00:00', at],
		[at / 1000, at],
		[at, at],
		[String(at / 1000), at],
		[' 2026-11-26T08:00:00Z ', at],
		['2026-11-26', undefined],
		['26.11.2026 08:00', undefined],
		['tomorrow', undefined],
		['', undefined],
		[0, undefined],
		[-5, undefined],
		[true, undefined],
		[null, undefined],
		[{ date: '2026-11-26' }, undefined],
	])('%j is read as %j', (value, expected) => {
		expect(postTime(value)).toBe(expected);
	});

	it('is fresh from 8.5 minutes before to 5 minutes after now', () => {
		expect(freshness('2026-11-26T08:00:00Z', at + MAX_AGE_MS)).toEqual({ fresh: true, at });
		expect(freshness('2026-11-26T08:00:00Z', at + MAX_AGE_MS + 1)).toMatchObject({
			fresh: false,
			problem: 'old',
		});
		expect(freshness('2026-11-26T08:00:00Z', at - MAX_AHEAD_MS)).toEqual({ fresh: true, at });
		expect(freshness('2026-11-26T08:00:00Z', at - MAX_AHEAD_MS - 1)).toMatchObject({
			fresh: false,
			problem: 'ahead',
		});
		expect(freshness(undefined, at)).toEqual({ fresh: false, problem: 'unreadable' });
	});

	it.each([
		[1_000, '1 second'],
		[42_000, '42 seconds'],
		[60_000, '1 minute'],
		[510_000, '8 minutes 30 seconds'],
		[3_600_000, '1 hour'],
		[-(2 * 3_600_000 + 120_000), '2 hours 2 minutes'],
	])('%d ms reads "%s"', (ms, text) => {
		expect(duration(ms)).toBe(text);
	});
});
