/** What the catch-up tests share: the outage they replay and how the service's call list writes times. */
import type { IDataObject } from 'n8n-workflow';

import { TEST_BASE_URL } from '../../helpers/context';

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

/** A call of the list (SPEC: Call (list item)), started at `startedMs`, 60 s long. */
export function listCall(id: number, startedMs: number, extra: IDataObject = {}): IDataObject {
	return {
		id,
		assistant_name: 'Front desk',
		campaign_name: null,
		type: 'inbound',
		duration: 60,
		assistant_phone_number: '+4930123456',
		client_phone_number: `+49151000${id}`,
		status: 'completed',
		transcript: `bot: Hello ${id}\nhuman: Hi`,
		variables: { topic: `call ${id}` },
		evaluation: {},
		webhook_response: null,
		carrier_cost: 0.01,
		total_cost: 0.05,
		answered_by: 'human',
		recording_url: `https://cdn.example.com/recordings/${id}.mp3`,
		created_at: listTime(startedMs),
		updated_at: listTime(startedMs + MINUTE),
		...extra,
	};
}

/** One page of the list envelope (SPEC: Pagination envelope). */
export function page(data: IDataObject[], current: number, last: number): IDataObject {
	return {
		current_page: current,
		data,
		next_page_url: current < last ? `${TEST_BASE_URL}${CALLS}?page=${current + 1}` : null,
		last_page: last,
		per_page: 100,
		total: data.length,
	};
}

/** The list, newest first, split into pages of 100. */
export function listPages(calls: IDataObject[]): IDataObject[] {
	const sorted = [...calls].sort((a, b) => Number(b.id) - Number(a.id));
	const chunks: IDataObject[][] = [];
	for (let i = 0; i < sorted.length; i += 100) chunks.push(sorted.slice(i, i + 100));
	return chunks.map((chunk, i) => page(chunk, i + 1, chunks.length));
}
