import type { INodeExecutionData, ITriggerFunctions, IWebhookFunctions } from 'n8n-workflow';

import { getClock } from '../../VoiceChatAssistant/transport/clock';
import { recordingInto } from '../../VoiceChatAssistant/transport/recording';

/**
 * The recordings of the calls a catch-up starts (option Download Recording).
 * A catch-up may start up to 1,000 calls (MAX_PAGES × PER_PAGE), and one
 * download may take minutes (transport/recording.ts: up to 120 s per request,
 * up to 5 redirects, up to 100 MB) while webhook() waits: with "When Last
 * Node Finishes" the service waits too, and in every mode the execution (the
 * delivered call among its items) starts only once they are done, each
 * recording in the execution's data. So a catch-up downloads a few recordings
 * at a time, at most MAX_CATCH_UP_DOWNLOADS of them (the oldest calls first,
 * the order of the items), and begins none once CATCH_UP_DOWNLOAD_BUDGET_MS
 * have passed since its first. A download that has begun runs to its end (its
 * own limits apply). The calls beyond still start, in their place, without
 * the binary and with a `recording_error` that says why and how to get the
 * recording later (the action node's Call → Get with Download Recording).
 */

/** Recordings one catch-up downloads at the same time. */
export const CATCH_UP_DOWNLOADS_AT_ONCE = 3;
/**
 * Recordings one catch-up downloads at most: 7 rounds of 3, a few seconds
 * from a healthy storage host, and at most some hundred MB of binary data
 * in one execution for recordings of a few MB each.
 */
export const MAX_CATCH_UP_DOWNLOADS = 20;
/**
 * A catch-up begins no download later than this after its first one: with a
 * slow storage host the delivery waits about this long plus one download
 * (at most 120 s per request), not 20 downloads' worth.
 */
export const CATCH_UP_DOWNLOAD_BUDGET_MS = 60_000;

const LOG = 'Voice Chat Assistant Trigger:';

/** A caught-up call's item and the address of its recording (from the service's call list). */
export interface RecordingJob {
	item: INodeExecutionData;
	url: string;
	callId: unknown;
}

const HOW_TO_GET_IT =
	"Download it with the Voice Chat Assistant node: Call → Get with this call's ID and the option Download Recording on.";

function notDownloaded(callId: unknown, why: 'count' | 'time', calls: number): string {
	const reason =
		why === 'count'
			? `a catch-up downloads at most ${MAX_CATCH_UP_DOWNLOADS} recordings (${CATCH_UP_DOWNLOADS_AT_ONCE} at a time), and this one started ${calls} calls with a recording`
			: `a catch-up begins no recording download more than ${CATCH_UP_DOWNLOAD_BUDGET_MS / 1000} seconds after its first, and this one's downloads took longer`;
	return `The recording of call ${String(callId)} was not downloaded: ${reason}. ${HOW_TO_GET_IT}`;
}

/**
 * The recordings of a catch-up's calls, into their items (in the order
 * given, oldest first): CATCH_UP_DOWNLOADS_AT_ONCE at a time, at most
 * MAX_CATCH_UP_DOWNLOADS, none begun after CATCH_UP_DOWNLOAD_BUDGET_MS; the
 * others get `recording_error`, and n8n's log one warning naming them.
 */
export async function downloadCaughtUpRecordings(
	ctx: IWebhookFunctions | ITriggerFunctions,
	jobs: RecordingJob[],
	assistantId: number,
): Promise<void> {
	if (!jobs.length) return;
	const clock = getClock();
	const began = clock.now();
	let next = 0;
	let begun = 0;
	const skipped: unknown[] = [];
	let outOfTime = false;
	const worker = async () => {
		while (next < jobs.length) {
			const job = jobs[next++];
			const why =
				begun >= MAX_CATCH_UP_DOWNLOADS
					? 'count'
					: clock.now() - began >= CATCH_UP_DOWNLOAD_BUDGET_MS
						? 'time'
						: undefined;
			if (why) {
				if (why === 'time') outOfTime = true;
				job.item.json.recording_error = notDownloaded(job.callId, why, jobs.length);
				skipped.push(job.callId);
				continue;
			}
			begun++;
			// what fails goes into the item's `recording_error` (the call is never held back)
			await recordingInto(ctx, job.item, job.url, { callId: job.callId, log: LOG });
		}
	};
	await Promise.all(
		Array.from({ length: Math.min(CATCH_UP_DOWNLOADS_AT_ONCE, jobs.length) }, worker),
	);
	if (skipped.length) {
		const limit = outOfTime
			? `no download begins more than ${CATCH_UP_DOWNLOAD_BUDGET_MS / 1000} seconds after the first`
			: `at most ${MAX_CATCH_UP_DOWNLOADS} recordings are downloaded per catch-up`;
		ctx.logger.warn(
			`${LOG} catching up assistant ${assistantId}: ${skipped.length} of ${jobs.length} call(s) go on without their recording (recording_error), because ${limit} (ids ${skipped.map(String).join(', ')}); download them with Call → Get and Download Recording`,
		);
	}
}
