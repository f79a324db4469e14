/**
 * The service's clock, in one place: the times it writes, read as instants, for the action node
 * and both triggers.
 *
 * The service writes a time in one of two forms:
 * - ISO 8601 with a zone (`2026-11-26T08:00:00.000000Z`, `+01:00`, `+0100`): the posts, most objects;
 * - a date and time without a zone (`2026-11-26 09:00:00`): the call list, the chats, some read
 *   receipts. It is in the service's own (or the account's) zone, which the API never names.
 *
 * A zone-less time is an instant only once that zone is known (the webhook trigger's catch-up
 * learns it: calls/catchUpList.ts); until then it is known only up to the zones in use
 * (EARLIEST_OFFSET_MINUTES to LATEST_OFFSET_MINUTES, in whole quarter hours).
 */

/** The zones in use: from UTC-12:00 ... */
export const EARLIEST_OFFSET_MINUTES = -12 * 60;
/** ... to UTC+14:00 (Kiribati), ... */
export const LATEST_OFFSET_MINUTES = 14 * 60;
/** ... in whole quarter hours (India +05:30, Nepal +05:45, Chatham +12:45). */
export const OFFSET_STEP_MINUTES = 15;
export const QUARTER_HOUR_MS = OFFSET_STEP_MINUTES * 60_000;
/** The widest offset of a zone from UTC. */
export const WIDEST_ZONE_MS = LATEST_OFFSET_MINUTES * 60_000;

const DATE_TIME = String.raw`(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)`;
const ZONELESS = new RegExp(`^${DATE_TIME}$`);
const ZONED = new RegExp(String.raw`^${DATE_TIME}\s*(Z|[+-]\d{2}:?\d{2})$`, 'i');

/**
 * A time of the service as epoch ms. With a zone: the instant it names. Without one: read in the
 * service's zone, `zoneMs` ahead of UTC (0: as if it were UTC); undefined when `zoneMs` is not
 * given (the zone is not known). Anything else: undefined.
 */
export function serviceTime(value: unknown, zoneMs?: number): number | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const zoned = ZONED.exec(text);
	const zoneless = zoned ? null : ZONELESS.exec(text);
	if (!zoned && (!zoneless || zoneMs === undefined)) return undefined;
	const time = zoned
		? Date.parse(`${zoned[1]}T${zoned[2]}${zoned[3].toUpperCase()}`)
		: Date.parse(`${zoneless![1]}T${zoneless![2]}Z`) - zoneMs!;
	return Number.isFinite(time) ? time : undefined;
}

/** Whether a value is a date and time without a zone (`2026-11-26 09:00:00`). */
export function isZoneless(value: unknown): boolean {
	return (
		typeof value === 'string' && ZONELESS.test(value.trim()) && serviceTime(value, 0) !== undefined
	);
}

/** An instant as the service's API takes it: ISO 8601 in UTC, to the second. */
export function isoSeconds(time: number): string {
	return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An offset from UTC for people: "UTC+05:45", "UTC-12:00". */
export function utcOffset(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+';
	const abs = Math.abs(minutes);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
