/**
 * The service's time zone from two reads of the call list and n8n's clock (calls/catchUpList.ts,
 * zoneBetweenReads): a call new since the earlier read brackets the zone; no post is involved.
 */
import type { IDataObject } from 'n8n-workflow';

import { zoneBetweenReads } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpList';

const MINUTE = 60_000;
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

/** A listed call created `createdMs` (UTC), as a service in UTC+`zoneMinutes` lists it. */
function call(id: number, createdMs: number, zoneMinutes: number, duration = 95): IDataObject {
	const local = new Date(createdMs + zoneMinutes * MINUTE).toISOString();
	return { id, duration, created_at: local.slice(0, 19).replace('T', ' ') };
}

describe('the zone from two reads of the call list', () => {
	it.each([0, 60, -300, 330, 345, 525, 765, -720, 840])(
		'a call created between reads 2 minutes apart gives the zone (%i minutes from UTC)',
		(zone) => {
			const listed = [call(501, NOW - 70_000, zone), call(400, NOW - 90 * MINUTE, zone)];
			expect(zoneBetweenReads(listed, 400, NOW - 2 * MINUTE, NOW)).toBe(zone);
		},
	);

	it('where the list shows a call only once it ended (created before the earlier read), its end brackets the zone', () => {
		// created 5 minutes ago, 4 minutes long: ended a minute ago, between the reads
		const listed = [call(501, NOW - 5 * MINUTE, 60, 240)];
		expect(zoneBetweenReads(listed, 400, NOW - 2 * MINUTE, NOW)).toBe(60);
	});

	it('nothing when no call is new since the earlier read, or the times carry a zone', () => {
		expect(zoneBetweenReads([call(400, NOW - 70_000, 60)], 400, NOW - 2 * MINUTE, NOW)).toBe(
			undefined,
		);
		const withZone = { id: 501, duration: 95, created_at: new Date(NOW - 70_000).toISOString() };
		expect(zoneBetweenReads([withZone], 400, NOW - 2 * MINUTE, NOW)).toBe(undefined);
	});

	it('nothing when the bracket holds more than one quarter hour: reads far apart, or a long call', () => {
		// reads 20 minutes apart
		expect(zoneBetweenReads([call(501, NOW - 70_000, 60)], 400, NOW - 20 * MINUTE, NOW)).toBe(
			undefined,
		);
		// a call of 20 minutes that ended between reads 2 minutes apart
		expect(
			zoneBetweenReads([call(501, NOW - 21 * MINUTE, 60, 1_200)], 400, NOW - 2 * MINUTE, NOW),
		).toBe(undefined);
	});

	it('a call listed only long after it ended (not between the reads) teaches nothing wrong', () => {
		// ended 20 minutes ago, first listed now: no quarter hour puts its end between the reads
		const late = call(501, NOW - 22 * MINUTE, 60, 120);
		expect(zoneBetweenReads([late], 400, NOW - 2 * MINUTE, NOW)).toBe(undefined);
	});
});
