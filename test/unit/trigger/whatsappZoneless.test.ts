/**
 * A read receipt whose `timestamp` has no zone (`2026-11-26 10:00:00`): the
 * service may write it in its own or the account's zone. Such a time is
 * fresh when some zone from UTC-12:00 to UTC+14:00 (whole quarter hours) puts
 * it inside the window, so genuine posts from any zone are accepted; the post
 * itself (its signature) is accepted once, so a copy played back later is
 * refused although some zone would make its time recent. Times with a zone
 * and Unix times are judged as strictly as before. n8n's clock is the fake
 * one: no test waits.
 */
import type { IDataObject } from 'n8n-workflow';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';

import {
	MAX_SIGNATURES,
	acceptedAt,
	rememberAccepted,
	signatureKey,
} from '../../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappSignatures';
import {
	EARLIEST_OFFSET_MINUTES,
	LATEST_OFFSET_MINUTES,
	OFFSET_STEP_MINUTES,
	isZoneless,
	utcOffset,
} from '../../../nodes/VoiceChatAssistant/transport/serviceTime';
import {
	MAX_AGE_MS,
	freshness,
} from '../../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappTime';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { NOW, RECEIPT_TIME, post, receipt, sign, warnings } from './whatsappPost';

const clock = fakeClockPerTest(NOW);
const HOUR = 3_600_000;

beforeEach(() => {
	forgetProcess();
});

/** RECEIPT_TIME (08:00:00 UTC) as a wall-clock time without a zone, `offsetMinutes` east of UTC. */
function localTime(offsetMinutes: number, separator = ' '): string {
	return new Date(RECEIPT_TIME + offsetMinutes * 60_000)
		.toISOString()
		.slice(0, 19)
		.replace('T', separator);
}

/** A receipt without any message id: only the signature memory can tell a repeat. */
function anonymous(fields: IDataObject): IDataObject {
	const payload = receipt(fields);
	delete payload.whatsapp_message_id;
	delete payload.message_sid;
	delete payload.meta_message_id;
	return payload;
}

describe('WhatsApp Message Status: a timestamp without a zone', () => {
	it.each([
		['UTC+02:00 (Berlin in summer)', 120, ' '],
		['UTC-05:00 (New York in winter)', -300, ' '],
		['UTC-05:00, written with a T', -300, 'T'],
		['UTC+05:45 (Nepal)', 345, ' '],
		['UTC+14:00 (Kiribati)', 14 * 60, ' '],
		['UTC-12:00', -12 * 60, ' '],
		['UTC (as before)', 0, ' '],
	])(
		'accepts a correctly signed post with the local time of %s',
		async (_zone, offset, separator) => {
			const timestamp = localTime(offset, separator);
			const { response, items } = await post(receipt({ timestamp }));
			expect(response.statusCode).toBe(200);
			expect(response.body).toEqual({ received: true });
			expect(items).toEqual([{ ...receipt({ timestamp }), test: false }]);
		},
	);

	it('the same post played back is refused: a redelivery within the retry span starts nothing (200), a copy later is answered 401', async () => {
		const raw = Buffer.from(JSON.stringify(anonymous({ timestamp: localTime(120) })));
		const first = await post(receipt(), { raw });
		expect(first.response.statusCode).toBe(200);
		expect(first.items).toHaveLength(1);

		// the service's retry of the same bytes after 30 s
		clock.advance(30_000);
		const retry = await post(receipt(), { raw });
		expect(retry.response.body).toEqual({ received: true, duplicate: true });
		expect(retry.items).toEqual([]);

		// eight hours later, the copy's "10:00" reads as recent in UTC-06:00: only the memory stops it
		clock.advance(8 * HOUR - 30_000);
		const { timestamp } = JSON.parse(raw.toString()) as IDataObject;
		expect(freshness(timestamp)).toMatchObject({ fresh: true, offsetMinutes: -360 });
		const replay = await post(receipt(), { raw });
		expect(replay.response.statusCode).toBe(401);
		expect(replay.response.body).toEqual({
			message: 'Unauthorized: this post was received before',
		});
		expect(replay.items).toEqual([]);
		expect(warnings(replay.logs)).toEqual([
			expect.stringContaining(
				'refused a signed post for message without an id (answered 401): the same post was accepted 8 hours ago',
			),
		]);
	});

	it('a post with a message id, replayed 75 minutes later in UTC-05:00, is refused although the memory of statuses (an hour) forgot it', async () => {
		const raw = Buffer.from(JSON.stringify(receipt({ timestamp: localTime(-300) })));
		expect((await post(receipt(), { raw })).items).toHaveLength(1);
		// 75 minutes later "03:00" is recent in UTC-06:15
		clock.advance(75 * 60_000);
		const replay = await post(receipt(), { raw });
		expect(replay.response.statusCode).toBe(401);
		expect(replay.items).toEqual([]);
	});

	it('is remembered per n8n process: after a restart a copy passes while some zone makes its time recent, and never after', async () => {
		const raw = Buffer.from(JSON.stringify(anonymous({ timestamp: localTime(120) })));
		expect((await post(receipt(), { raw })).items).toHaveLength(1);
		clock.advance(8 * HOUR);
		forgetProcess();
		expect((await post(receipt(), { raw })).items).toHaveLength(1);
		// "10:00" read in UTC-12:00 is 22:00 UTC: 8.5 minutes later no zone makes it recent
		clock.advance(6 * HOUR + MAX_AGE_MS);
		forgetProcess();
		const late = await post(receipt(), { raw });
		expect(late.response.body).toEqual({ message: 'Unauthorized: "timestamp" is too old' });
		expect(late.items).toEqual([]);
	});

	it('a zone-less time no zone makes recent is refused with 401, and the log says so', async () => {
		const timestamp = localTime(120 - 3 * 24 * 60);
		const { response, items, logs } = await post(receipt({ timestamp }));
		expect(response.body).toEqual({ message: 'Unauthorized: "timestamp" is too old' });
		expect(items).toEqual([]);
		expect(warnings(logs)[0]).toContain(
			`its "timestamp" "${timestamp}" has no time zone, and no zone from UTC-12:00 to UTC+14:00 makes it recent (read as 2026-11-23T22:00:00.000Z, the nearest, it is 58 hours old)`,
		);
	});

	it('a zone-less time between two quarter hours (9 minutes off) fits no zone', () => {
		const written = Date.parse('2026-11-26T10:00:00Z');
		expect(freshness('2026-11-26 10:00:00', written - 2 * HOUR + 9 * 60_000)).toMatchObject({
			fresh: false,
			problem: 'old',
			zoneless: true,
			ageMs: 9 * 60_000,
		});
		expect(freshness('2026-11-26 10:00:00', written - 2 * HOUR + 8 * 60_000)).toEqual({
			fresh: true,
			at: written - 2 * HOUR,
			zoneless: true,
			offsetMinutes: 120,
			freshUntil: written + 12 * HOUR + MAX_AGE_MS,
		});
	});
});

describe('WhatsApp Message Status: a timestamp with a zone stays as strict', () => {
	it.each([
		['two hours old, in UTC', '2026-11-26T06:00:00.000Z', 'too old'],
		['two hours old, with an offset', '2026-11-26T08:00:00+02:00', 'too old'],
		['the local time of UTC+02:00 marked as UTC', '2026-11-26T10:00:00Z', 'in the future'],
		['the local time of UTC-05:00 marked as UTC', '2026-11-26T03:00:00Z', 'too old'],
		['a Unix time two hours old', (RECEIPT_TIME - 2 * HOUR) / 1000, 'too old'],
	])('refuses a correctly signed post %s', async (_label, timestamp, problem) => {
		const { response, items } = await post(receipt({ timestamp }));
		expect(response.statusCode).toBe(401);
		expect(response.body).toEqual({ message: `Unauthorized: "timestamp" is ${problem}` });
		expect(items).toEqual([]);
	});

	it('keeps no signature of a post with a zone (its window is the protection, as before)', async () => {
		const raw = Buffer.from(JSON.stringify(anonymous({})));
		expect((await post(receipt(), { raw })).items).toHaveLength(1);
		expect(acceptedAt(signatureKey(sign(raw)) as string)).toBeUndefined();
	});
});

describe('the zones tried and the memory of signatures', () => {
	it('tries every quarter hour from UTC-12:00 to UTC+14:00', () => {
		expect([EARLIEST_OFFSET_MINUTES, LATEST_OFFSET_MINUTES, OFFSET_STEP_MINUTES]).toEqual([
			-720, 840, 15,
		]);
		expect(utcOffset(345)).toBe('UTC+05:45');
		expect(utcOffset(-570)).toBe('UTC-09:30');
		expect(isZoneless('2026-11-26 10:00:00')).toBe(true);
		expect(isZoneless('2026-11-26T10:00')).toBe(true);
		expect(isZoneless('2026-11-26T10:00:00Z')).toBe(false);
		expect(isZoneless('1764144000')).toBe(false);
	});

	it('reads the signature header as a key (any case, a list, nothing else)', () => {
		const hex = 'A'.repeat(64);
		expect(signatureKey(`sha256=${hex}`)).toBe('a'.repeat(64));
		expect(signatureKey([` sha256=${hex} `])).toBe('a'.repeat(64));
		expect(signatureKey('sha256=abc')).toBeUndefined();
		expect(signatureKey(undefined)).toBeUndefined();
	});

	it(`forgets a signature once no zone makes its time fresh, and keeps at most ${MAX_SIGNATURES}, the oldest going first`, () => {
		const now = clock.now();
		expect(rememberAccepted('a', now + 1_000, now)).toBe(0);
		expect(acceptedAt('a', now + 1_000)).toBe(now);
		expect(acceptedAt('a', now + 1_001)).toBeUndefined();

		forgetProcess();
		let forgotten = 0;
		for (let i = 0; i <= MAX_SIGNATURES; i++)
			forgotten += rememberAccepted(`k${i}`, now + HOUR, now);
		expect(forgotten).toBe(1);
		expect(acceptedAt('k0', now)).toBeUndefined();
		expect(acceptedAt('k1', now)).toBe(now);
		expect(acceptedAt(`k${MAX_SIGNATURES}`, now)).toBe(now);
	});
});
