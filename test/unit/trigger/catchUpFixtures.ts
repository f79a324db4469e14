/** What the catch-up tests share: the outage they replay and how the service's call list writes times. */

export const URL_PARAM = 'Qm3kZ8pR1vT6wX9yB2nC5dF7gH0jK4lA';
export const MINUTE = 60_000;
export const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
/** The watermark: n8n went down at 10:00 UTC and is back at 12:00. */
export const DOWN_AT = NOW - 120 * MINUTE;
/** The service writes list times in its own zone, here one hour ahead of UTC. */
export const ZONE_MS = 60 * MINUTE;
export const CALLS = '/api/user/calls';

/** `YYYY-MM-DD HH:MM:SS` in the service's zone, as the call list writes it. */
export function listTime(ms: number): string {
	return new Date(ms + ZONE_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The delivered call: started 2 minutes ago, 73 s long. */
export const DELIVERED_ID = 20_000;
export const DELIVERED_START = NOW - 2 * MINUTE;
/** What the delivered call's post says about it (each test file adds its own fields). */
export const DELIVERED = {
	id: DELIVERED_ID,
	customer_phone: '+4915112345678',
	assistant_phone: '+4930123456',
	duration: 73,
	status: 'completed',
};
