/**
 * The service's clock (transport/serviceTime.ts), the one place the action node and both triggers
 * read the service's times: a time with a zone is the instant it names; a zone-less one only once
 * the service's zone is given.
 */
import {
	WIDEST_ZONE_MS,
	isZoneless,
	isoSeconds,
	serviceTime,
	utcOffset,
} from '../../../nodes/VoiceChatAssistant/transport/serviceTime';

const INSTANT = Date.UTC(2026, 10, 26, 8, 0, 0);
const HOUR = 60 * 60_000;

describe("the service's times", () => {
	it.each([
		['2026-11-26T08:00:00Z', INSTANT],
		['2026-11-26T08:00:00.000000Z', INSTANT],
		['2026-11-26T08:00:00.123456z', INSTANT + 123],
		['2026-11-26T09:00:00+01:00', INSTANT],
		['2026-11-26T09:00:00+0100', INSTANT],
		['2026-11-26 09:00:00+01:00', INSTANT],
		['2026-11-26 09:00:00 +01:00', INSTANT],
		['2026-11-26T02:15-05:45', INSTANT],
		['  2026-11-26T08:00:00Z  ', INSTANT],
	])('%j names its zone: the same instant whatever zone is given', (text, expected) => {
		expect([serviceTime(text), serviceTime(text, 0), serviceTime(text, 5 * HOUR)]).toEqual([
			expected,
			expected,
			expected,
		]);
		expect(isZoneless(text)).toBe(false);
	});

	it.each([
		['2026-11-26 09:00:00', INSTANT + HOUR],
		['2026-11-26T09:00:00', INSTANT + HOUR],
		['2026-11-26 09:00', INSTANT + HOUR],
		['2026-11-26 09:00:00.250', INSTANT + HOUR + 250],
	])('%j names no zone: no instant until the zone is given, then read in it', (text, asUtc) => {
		expect(serviceTime(text)).toBeUndefined();
		expect(serviceTime(text, 0)).toBe(asUtc);
		// the service one hour ahead of UTC (UTC+01:00): 09:00 there is 08:00 UTC
		expect(serviceTime(text, HOUR)).toBe(asUtc - HOUR);
		expect(isZoneless(text)).toBe(true);
	});

	it.each([
		'',
		'yesterday',
		'2026-11-26',
		'2026-13-45 09:00:00',
		'2026-11-26T09:00:00+01',
		'Thu, 26 Nov 2026 08:00:00 GMT',
		1795680000000,
		null,
		undefined,
	])('%j is no time of the service', (value) => {
		expect(serviceTime(value, 0)).toBeUndefined();
		expect(isZoneless(value)).toBe(false);
	});

	it('writes instants to the second in UTC, and offsets for people', () => {
		expect(isoSeconds(INSTANT + 999)).toBe('2026-11-26T08:00:00Z');
		expect([utcOffset(345), utcOffset(-720), utcOffset(0)]).toEqual([
			'UTC+05:45',
			'UTC-12:00',
			'UTC+00:00',
		]);
		expect(WIDEST_ZONE_MS).toBe(14 * HOUR);
	});
});
