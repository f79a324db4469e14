/**
 * The catch-up's decision on the calls it listed (calls/catchUpSelect.ts, planStarts), pure: no
 * request, no memory. Another process catching up the same gap (a delivery of a call that ended
 * just before the delivered one; for the heartbeat, deliveries through another process lately),
 * else the calls that start, oldest first, at most MAX_STARTS, and the rest left for later.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_STARTS } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpList';
import type { Listed } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpList';
import {
	ELSEWHERE_MS,
	QUIET_ELSEWHERE_MS,
	planStarts,
} from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpSelect';
import type { Delivered } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpSelect';
import { INBOUND, POST_CALL } from '../../../nodes/VoiceChatAssistantTrigger/core/events';
import type { TriggerEvent } from '../../../nodes/VoiceChatAssistantTrigger/core/events';

const NOW = Date.parse('2026-11-30T10:00:00Z');
const MINUTE = 60_000;
const ASSISTANT = 12;
const SINCE = NOW - 60 * MINUTE;
const UNTIL = NOW - MINUTE;

/** A listed call that ended `ago` ms before NOW, as listCalls reads it. */
function listed(id: number, ago: number, call: IDataObject = {}): Listed {
	const ended = NOW - ago;
	return {
		call: { id, status: 'completed', duration: 60, webhook_response: null, ...call },
		id,
		created: ended - MINUTE,
		updated: ended,
		ended,
	};
}

function delivered(options: IDataObject = {}, event: TriggerEvent = POST_CALL): Delivered {
	return { event, assistantId: ASSISTANT, payload: { id: 999 }, options, verified: true };
}

function plan(
	calls: Listed[],
	at: Partial<Parameters<typeof planStarts>[2]> = {},
	from: Delivered = delivered(),
) {
	return planStarts(calls, from, {
		assistantId: ASSISTANT,
		since: SINCE,
		until: UNTIL,
		now: NOW,
		deliveredId: undefined,
		beatingSince: undefined,
		remembered: new Set(),
		here: () => false,
		...at,
	});
}

const startedIds = (starts: ReturnType<typeof plan>) =>
	'start' in starts ? starts.start.map(({ id }) => id) : starts;

describe('the catch-up decides on the listed calls without a request (planStarts)', () => {
	it('starts the unanswered final calls that ended between the watermark and a minute ago, oldest first, as caught-up items', () => {
		const starts = plan([
			listed(105, 2 * MINUTE),
			listed(101, 50 * MINUTE),
			listed(103, 10 * MINUTE),
			listed(90, 61 * MINUTE), // before the watermark
			listed(106, 30_000), // left to its own delivery
			listed(104, 5 * MINUTE, { webhook_response: { received: true } }), // reached a workflow
			listed(102, 20 * MINUTE, { status: 'in-progress' }), // not over
			listed(107, 3 * MINUTE, { status: 'no-answer' }), // Only Completed Calls
		]);
		expect(startedIds(starts)).toEqual([101, 103, 105]);
		expect('start' in starts && starts.start[0].item.json).toMatchObject({
			id: 101,
			event: POST_CALL,
			assistant_id: ASSISTANT,
			caught_up: true,
		});
		expect('later' in starts && starts.later).toEqual([]);
	});

	it('leaves out the calls started already, the delivered one and those this process received', () => {
		const calls = [101, 102, 103, 104].map((id, i) => listed(id, (40 - i) * MINUTE));
		const starts = plan(calls, {
			remembered: new Set([101]),
			deliveredId: 102,
			here: (id) => id === 103,
		});
		expect(startedIds(starts)).toEqual([104]);
	});

	it('leaves the gap to another process whose delivery of a call that ended just before the delivered one may be catching up', () => {
		const other = listed(201, ELSEWHERE_MS / 2);
		const mine = listed(202, ELSEWHERE_MS / 4);
		const starts = plan([listed(150, 20 * MINUTE), other, mine], { deliveredId: 202 });
		expect(starts).toEqual({ elsewhere: other.call, through: 'delivery' });
		// the same call ended longer ago: no delivery under way, the gap starts here
		const older = listed(201, ELSEWHERE_MS + 1_000);
		expect(startedIds(plan([listed(150, 20 * MINUTE), older, mine], { deliveredId: 202 }))).toEqual(
			[150],
		);
	});

	it('lets the heartbeat leave the gap to another process that received a call of this trigger lately, and take it over once that has been quiet', () => {
		const beatingSince = NOW - 30 * MINUTE;
		const answered = { webhook_response: { received: true } };
		const lately = listed(301, QUIET_ELSEWHERE_MS / 2, answered);
		expect(plan([listed(150, 20 * MINUTE), lately], { beatingSince })).toEqual({
			elsewhere: lately.call,
			through: 'deliveries',
		});
		const quiet = listed(301, QUIET_ELSEWHERE_MS + MINUTE, answered);
		expect(startedIds(plan([listed(150, 20 * MINUTE), quiet], { beatingSince }))).toEqual([150]);
		// a delivery's catch-up (not the heartbeat's) does not wait for the quiet
		expect(startedIds(plan([listed(150, 20 * MINUTE), lately]))).toEqual([150]);
	});

	it(`starts at most ${MAX_STARTS} calls, the oldest, and leaves the rest for the next catch-up`, () => {
		const calls = Array.from({ length: MAX_STARTS + 3 }, (_, i) =>
			listed(1_000 + i, 50 * MINUTE - i * 1_000),
		);
		const starts = plan(calls);
		if (!('start' in starts)) throw new Error('expected calls to start');
		expect(starts.start).toHaveLength(MAX_STARTS);
		expect(starts.start[0].id).toBe(1_000);
		expect(starts.later.map(({ id }) => id)).toEqual([
			1_000 + MAX_STARTS,
			1_001 + MAX_STARTS,
			1_002 + MAX_STARTS,
		]);
	});

	it("starts only the event's call type, and downloads the recordings of Download Recording from the list's address", () => {
		const recorded = { recording_url: 'https://cdn.example.com/a.mp3' };
		const calls = [
			listed(401, 20 * MINUTE, { type: 'inbound', ...recorded }),
			listed(402, 10 * MINUTE, { type: 'outbound', ...recorded }),
			listed(403, 5 * MINUTE, { type: 'inbound' }),
		];
		const starts = plan(calls, {}, delivered({ downloadRecording: true }, INBOUND));
		if (!('start' in starts)) throw new Error('expected calls to start');
		expect(starts.start.map(({ id }) => id)).toEqual([401, 403]);
		expect(starts.start[0].recording).toMatchObject({
			url: 'https://cdn.example.com/a.mp3',
			callId: 401,
		});
		expect(starts.start[1].recording).toBeUndefined();
		expect(plan(calls, {}, delivered({}, INBOUND))).toMatchObject({
			start: [{ recording: undefined }, { recording: undefined }],
		});
	});
});
