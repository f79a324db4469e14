/**
 * Two n8n webhook processes catching up one gap (docs/triggers/call-ended-webhook.md, "Several n8n
 * webhook processes"): process A's delivery X catches up the calls missed during a downtime,
 * downloading their recordings; process B's delivery Y arrives while A's catch-up runs. B shares
 * only what n8n saved before (A's static data is saved when webhook() returns) and the service's
 * call list, which shows X answered only once A has answered it. B leaves the gap to A while X
 * ended less than 30 s before and is unanswered; later, or when A answered X before its downloads
 * (Download Recording in Response Mode "Immediately"), B starts the gap's calls a second time.
 */
import nock from 'nock';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { ELSEWHERE_MS } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpSelect';
import { TEST_BASE_URL } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { answerAsN8n } from '../../helpers/hookContext';
import { registeredTrigger, trigger } from '../../helpers/registeredTrigger';
import { CALLS, DOWN_AT, MINUTE, NOW, URL_PARAM, listCall } from './catchUpFixtures';

const CDN = 'https://cdn.example.com';
/** How long the service takes to answer a list request, and a recording of the gap to download (three at a time). */
const LIST_MS = 25_000;
const DOWNLOAD_MS = 15_000;

const clock = fakeClockPerTest(NOW);

/** Another n8n process: nothing of this one's memory (catch-ups, deliveries received). */
function anotherProcess() {
	forgetProcess();
}

beforeEach(anotherProcess);

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The three calls that ended while n8n could not receive; unanswered (they were never posted). */
const GAP = [9001, 9002, 9003].map((id, i) => listCall(id, DOWN_AT + (1 + 3 * i) * MINUTE));
const BEFORE = listCall(8990, DOWN_AT - 30 * MINUTE);

/** A delivered call that ended at `endedMs`, 60 s long, without a recording of its own. */
function deliveredCall(id: number, endedMs: number) {
	const listed = listCall(id, endedMs - MINUTE, { recording_url: null });
	const payload = {
		id,
		customer_phone: listed.client_phone_number,
		assistant_phone: '+4930123456',
		duration: 60,
		status: 'completed',
		transcript: 'bot: Hello\nhuman: Hi',
		recording_url: null,
		created_at: iso(endedMs - MINUTE),
		finished_at: iso(endedMs),
		lead: null,
		campaign: null,
	};
	return { listed, payload };
}

/** Assistants 12 and 34 registered for Inbound Call Completed; the deliveries come from 34. */
const registered = registeredTrigger({ secrets: { 12: URL_PARAM, 34: URL_PARAM } });

/** The service: the call list as it is now (newest first), answered in LIST_MS; `onList` sees it read. */
let listed: IDataObject[] = [];
let onList: () => void = () => undefined;

beforeEach(() => {
	nock(TEST_BASE_URL)
		.persist()
		.get(CALLS)
		.query(true)
		.reply(200, () => {
			onList();
			clock.advance(LIST_MS);
			return {
				current_page: 1,
				data: [...listed].sort((a, b) => Number(b.id) - Number(a.id)),
				next_page_url: null,
				last_page: 1,
			};
		});
	// the storage host: each recording of the gap takes DOWNLOAD_MS
	nock(CDN)
		.persist()
		.get(/^\/recordings\/9\d{3}\.mp3$/)
		.reply(async (uri) => {
			clock.advance(DOWNLOAD_MS);
			await new Promise((resolve) => setImmediate(resolve));
			return [200, Buffer.from(`ID3-${uri}`), { 'content-type': 'audio/mpeg' }];
		});
});

/** One delivery of `call` through webhook(), answered as n8n answers; its items as [id, caught_up]. */
async function deliver(
	call: ReturnType<typeof deliveredCall>,
	responseMode: string,
	downloadRecording: boolean,
	staticData: IDataObject,
) {
	const ctx = registered.webhookContext({
		body: call.payload,
		staticData,
		parameters: registered.parameters({ responseMode, options: { downloadRecording } }),
	});
	// what the delivery had answered the service when its catch-up read the call list
	let answeredAtCatchUp: IDataObject | null = null;
	onList = () => {
		if (ctx.response.ended) answeredAtCatchUp = ctx.response.body as IDataObject;
	};
	const result = await trigger.webhook.call(ctx.context);
	answerAsN8n(result, ctx.response, responseMode);
	const items = ((result.workflowData as INodeExecutionData[][] | undefined)?.[0] ?? []).map(
		(item) => [item.json.id, item.json.caught_up],
	);
	return { items, answeredAtCatchUp };
}

const TWICE = 'the missed calls start twice, caught_up both times';

describe('Voice Chat Assistant Trigger: two webhook processes catching up at once', () => {
	it.each([
		{
			mode: 'When Last Node Finishes',
			responseMode: 'lastNode',
			recording: 'on',
			afterS: 20,
			outcome: 'left to the first',
		},
		{
			mode: 'When Last Node Finishes',
			responseMode: 'lastNode',
			recording: 'on',
			afterS: 40,
			outcome: TWICE,
		},
		{ mode: 'Immediately', responseMode: 'onReceived', recording: 'on', afterS: 5, outcome: TWICE },
		{
			mode: 'Immediately',
			responseMode: 'onReceived',
			recording: 'off',
			afterS: 20,
			outcome: 'left to the first',
		},
	])(
		"Response Mode $mode, Download Recording $recording: another process's delivery $afterS s after the first call ended, while that catch-up runs: $outcome",
		async ({ responseMode, recording, afterS, outcome }) => {
			const downloadRecording = recording === 'on';
			const afterMs = afterS * 1000;
			const saved = registered.staticData('inboundCallCompleted');
			saved.catchUp = { assistants: { '34': { at: DOWN_AT, recent: [] } } };
			const savedBeforeA = JSON.stringify(saved);

			// process A: delivery X, its call just ended; the gap's calls with their recordings
			const x = deliveredCall(20_000, NOW);
			listed = [x.listed, ...GAP, BEFORE];
			const a = await deliver(x, responseMode, downloadRecording, saved);
			expect(a.items).toEqual([
				...(responseMode === 'lastNode' ? [[20_000, undefined]] : []),
				[9001, true],
				[9002, true],
				[9003, true],
				...(responseMode === 'lastNode' ? [] : [[20_000, undefined]]),
			]);
			// the catch-up took its time: Y arrives while it runs
			expect(clock.now() - NOW).toBeGreaterThan(afterMs);
			// while it runs, the service has recorded for X what A had answered by then: nothing, or
			// "received" when A answers before the downloads (Download Recording in "Immediately")
			const recordedForX = a.answeredAtCatchUp;
			expect(recordedForX).toEqual(
				responseMode === 'onReceived' && downloadRecording ? { received: true } : null,
			);

			// process B: delivery Y, its call ended afterMs after X's; n8n loads the static data saved
			// before A's ends, and the call list shows X as the service has recorded it so far
			anotherProcess();
			clock.advance(NOW + afterMs - clock.now());
			const y = deliveredCall(20_001, NOW + afterMs);
			listed = [y.listed, { ...x.listed, webhook_response: recordedForX }, ...GAP, BEFORE];
			const b = await deliver(
				y,
				responseMode,
				downloadRecording,
				JSON.parse(savedBeforeA) as IDataObject,
			);
			const startedAgain = b.items.filter(([, caughtUp]) => caughtUp === true);
			if (outcome === TWICE) {
				// each missed call starts a second time, caught_up both times
				expect(startedAgain).toEqual([
					[9001, true],
					[9002, true],
					[9003, true],
				]);
			} else {
				// X ended within the last 30 s, unanswered: B leaves the gap to A's catch-up
				expect(afterMs).toBeLessThan(ELSEWHERE_MS);
				expect(b.items).toEqual([[20_001, undefined]]);
			}
		},
	);
});
