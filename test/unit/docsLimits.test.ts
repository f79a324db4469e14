/**
 * The "Limits" of the trigger guide (docs/triggers/README.md, "## Limits",
 * one table per trigger) against the code: each row's Limit cell is the
 * number the code's exported constant gives, written as the page writes it
 * (`String(MAX_CATCH_UP_DOWNLOADS)`, `${MAX_AGE_MS / 60000} minutes`). A
 * constant changed without the page, a row added without its constant here,
 * or a number written outside the Limit column fails.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { tableCells } from '../helpers/docFields';
import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import {
	CATCH_UP_DOWNLOAD_BUDGET_MS,
	CATCH_UP_DOWNLOADS_AT_ONCE,
	LEFT_TO_DELIVERY_MS,
	MAX_CATCH_UP_DOWNLOADS,
	MAX_PAGES,
	MAX_ROUND_PAGES,
	MAX_STARTS,
	PER_PAGE as CATCH_UP_PER_PAGE,
} from '../../nodes/VoiceChatAssistantTrigger/calls/catchUp';
import { ELSEWHERE_MS } from '../../nodes/VoiceChatAssistantTrigger/calls/catchUpSelect';
import { MAX_GIVE_BACK } from '../../nodes/VoiceChatAssistantTrigger/calls/registration';
import { REPLAY_WINDOW_MS } from '../../nodes/VoiceChatAssistantTrigger/core/replays';
import {
	DEFAULT_TIMEOUT,
	MAX_DESCRIPTION,
	midCallToolProperties,
	readDefinition,
} from '../../nodes/VoiceChatAssistantTrigger/midCallTool/midCallTool';
import { MAX_SIGNATURES } from '../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappSignatures';
import {
	EARLIEST_OFFSET_MINUTES,
	LATEST_OFFSET_MINUTES,
	OFFSET_STEP_MINUTES,
	utcOffset,
} from '../../nodes/VoiceChatAssistant/transport/serviceTime';
import {
	MAX_AGE_MS,
	MAX_AHEAD_MS,
} from '../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappTime';
import {
	MAX_RECORDING_BYTES,
	MAX_REDIRECTS,
} from '../../nodes/VoiceChatAssistant/transport/recording';
import { MAX_PENDING, PENDING_TTL_MS } from '../../nodes/VoiceChatAssistantPollingTrigger/calls';
import {
	MAX_WATCHED,
	WATCH_TTL_MS,
} from '../../nodes/VoiceChatAssistantPollingTrigger/conversations';
import {
	MAX_TRACKED_LEADS,
	PROCESSING_PAGES,
} from '../../nodes/VoiceChatAssistantPollingTrigger/events/leadScan';
import {
	MAX_REQUESTS_PER_POLL,
	MAX_SIDE_READS_PER_POLL,
	PER_PAGE,
} from '../../nodes/VoiceChatAssistantPollingTrigger/pages';
import {
	MAX_LOOKUPS_PER_POLL,
	RUNNING_PAGES,
} from '../../nodes/VoiceChatAssistantPollingTrigger/runningCalls';
import { FLIGHT_TAKEOVER_MS } from '../../nodes/VoiceChatAssistantPollingTrigger/singleFlight';

const GUIDE = 'docs/triggers/README.md';
const markdown = readFileSync(join(__dirname, '../..', GUIDE), 'utf8');

/** The Markdown of a section: from its heading to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
	const lines = text.split('\n');
	const start = lines.findIndex((l) => /^#+\s/.test(l) && l.replace(/^#+\s*/, '') === heading);
	if (start < 0) throw new Error(`${GUIDE}: no section "${heading}"`);
	const level = /^#+/.exec(lines[start])![0].length;
	const end = lines.findIndex(
		(l, i) => i > start && /^#+\s/.test(l) && /^#+/.exec(l)![0].length <= level,
	);
	return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

const cells = tableCells;

/** The table of a Limits section: each row's first cell → its "Limit" cell. */
function limitRows(heading: string): Map<string, string> {
	const lines = section(section(markdown, 'Limits'), heading).split('\n');
	const headerAt = lines.findIndex((l) => l.startsWith('|'));
	if (headerAt < 0) throw new Error(`${GUIDE}: no table under "${heading}"`);
	const column = cells(lines[headerAt]).indexOf('Limit');
	if (column < 0) throw new Error(`${GUIDE}: the table under "${heading}" has no "Limit" column`);
	const rows = new Map<string, string>();
	for (const line of lines.slice(headerAt + 2)) {
		if (!line.startsWith('|')) break;
		const row = cells(line);
		rows.set(row[0], row[column]);
	}
	return rows;
}

/** A number as the page writes it: 1,000 and 200,000; 8.5 as it is. */
const written = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const counted = (n: number, unit: string) => `${written(n)} ${unit}${n === 1 ? '' : 's'}`;
const seconds = (ms: number) => counted(ms / 1000, 'second');
const minutes = (ms: number) => counted(ms / 60_000, 'minute');
const hours = (ms: number) => counted(ms / 3_600_000, 'hour');
const megabytes = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

/** The Timeout (Seconds) field of the mid-call tool, as the editor offers it. */
const timeoutField = midCallToolProperties.find((p) => p.name === 'toolTimeout')!;
const TIMEOUT_MIN = timeoutField.typeOptions!.minValue as number;
const TIMEOUT_MAX = timeoutField.typeOptions!.maxValue as number;

/** [the constants, the row's first cell, its Limit cell as the code computes it] */
type Limit = [string, string, string];

const WEBHOOK_LIMITS: Limit[] = [
	[
		'MAX_ROUND_PAGES × PER_PAGE (calls/catchUpList.ts)',
		'Calls of the call list a heartbeat round reads, newest first',
		`${written(MAX_ROUND_PAGES * CATCH_UP_PER_PAGE)} (${MAX_ROUND_PAGES} requests of ${CATCH_UP_PER_PAGE})`,
	],
	[
		'MAX_PAGES × PER_PAGE (calls/catchUpList.ts)',
		"Calls of the call list a webhook process's catch-up reads (with a delivered call)",
		`${written(MAX_PAGES * CATCH_UP_PER_PAGE)} (${MAX_PAGES} requests of ${CATCH_UP_PER_PAGE})`,
	],
	[
		'MAX_STARTS (calls/catchUpList.ts)',
		'Missed calls one catch-up starts, oldest first',
		written(MAX_STARTS),
	],
	[
		'LEFT_TO_DELIVERY_MS (calls/catchUp.ts)',
		'Calls that ended this recently are left to their own post',
		minutes(LEFT_TO_DELIVERY_MS),
	],
	[
		'MAX_CATCH_UP_DOWNLOADS (calls/catchUpRecordings.ts)',
		'Recordings one catch-up downloads (**Download Recording**)',
		String(MAX_CATCH_UP_DOWNLOADS),
	],
	[
		'CATCH_UP_DOWNLOADS_AT_ONCE (calls/catchUpRecordings.ts)',
		'Recordings a catch-up downloads at the same time',
		String(CATCH_UP_DOWNLOADS_AT_ONCE),
	],
	[
		'CATCH_UP_DOWNLOAD_BUDGET_MS (calls/catchUpRecordings.ts)',
		"Time after a catch-up's first download in which it begins more",
		seconds(CATCH_UP_DOWNLOAD_BUDGET_MS),
	],
	[
		'MAX_RECORDING_BYTES, MAX_REDIRECTS (transport/recording.ts)',
		'One recording download',
		`${megabytes(MAX_RECORDING_BYTES)}, at most ${MAX_REDIRECTS} redirects`,
	],
	[
		'REPLAY_WINDOW_MS (core/replays.ts)',
		'A call, chat or WhatsApp status posted again is recognised as a repeat for at most',
		hours(REPLAY_WINDOW_MS),
	],
	[
		'ELSEWHERE_MS (calls/catchUpSelect.ts)',
		'Queue mode: an unanswered call that ended this recently counts as on its way through another webhook process',
		seconds(ELSEWHERE_MS),
	],
	[
		'MAX_GIVE_BACK (calls/registration.ts)',
		'Earlier webhooks kept to give back, per assistant (workflows taking over one another)',
		String(MAX_GIVE_BACK),
	],
	[
		'MAX_AGE_MS (whatsapp/whatsappTime.ts)',
		'WhatsApp Message Status: the oldest `timestamp` accepted',
		minutes(MAX_AGE_MS),
	],
	[
		'MAX_AHEAD_MS (whatsapp/whatsappTime.ts)',
		"WhatsApp Message Status: a `timestamp` ahead of n8n's clock by at most",
		minutes(MAX_AHEAD_MS),
	],
	[
		'EARLIEST_OFFSET_MINUTES, LATEST_OFFSET_MINUTES, OFFSET_STEP_MINUTES (whatsapp/whatsappTime.ts)',
		'WhatsApp Message Status: the zones tried for a `timestamp` without one',
		`${utcOffset(EARLIEST_OFFSET_MINUTES)} to ${utcOffset(LATEST_OFFSET_MINUTES)}, every ${counted(OFFSET_STEP_MINUTES, 'minute')}`,
	],
	[
		'MAX_SIGNATURES (whatsapp/whatsappSignatures.ts)',
		'WhatsApp Message Status: posts without a zone remembered per n8n process (a copy is refused)',
		written(MAX_SIGNATURES),
	],
	[
		"midCallToolProperties' toolTimeout minValue and maxValue, DEFAULT_TIMEOUT (midCallTool/midCallTool.ts)",
		'Mid-Call Tool Request: **Timeout (Seconds)**',
		`${TIMEOUT_MIN} to ${TIMEOUT_MAX} seconds, default ${DEFAULT_TIMEOUT}`,
	],
	[
		'MAX_DESCRIPTION (midCallTool/midCallTool.ts)',
		"Mid-Call Tool Request: **Tool Description** and each parameter's **Description**",
		counted(MAX_DESCRIPTION, 'character'),
	],
];

const POLLING_LIMITS: Limit[] = [
	[
		'MAX_REQUESTS_PER_POLL, PER_PAGE (pages.ts)',
		"Requests a poll reads of the event's list (Call Ended, New Conversation, Conversation Ended, Lead Status Changed)",
		`${MAX_REQUESTS_PER_POLL} of ${PER_PAGE} entries each`,
	],
	[
		'MAX_SIDE_READS_PER_POLL (pages.ts)',
		'Recordings (Call Ended, **Download Recording**) or chat histories (Conversation Ended) a poll reads',
		String(MAX_SIDE_READS_PER_POLL),
	],
	[
		'MAX_RECORDING_BYTES, MAX_REDIRECTS (transport/recording.ts)',
		'One recording download (Call Ended)',
		`${megabytes(MAX_RECORDING_BYTES)}, at most ${MAX_REDIRECTS} redirects`,
	],
	['MAX_PENDING (calls.ts)', 'Calls followed until they end (Call Ended)', written(MAX_PENDING)],
	[
		'PENDING_TTL_MS (calls.ts)',
		'A call that has not ended is given up after (Call Ended)',
		hours(PENDING_TTL_MS),
	],
	[
		'RUNNING_PAGES × PER_PAGE (runningCalls.ts)',
		"Calls already running at activation below the list's first page (Call Ended)",
		`${written(RUNNING_PAGES * PER_PAGE)} per status (${RUNNING_PAGES} requests of ${PER_PAGE})`,
	],
	[
		'MAX_LOOKUPS_PER_POLL (runningCalls.ts)',
		'Such calls looked up per poll once they left the running lists',
		String(MAX_LOOKUPS_PER_POLL),
	],
	[
		'MAX_WATCHED (conversations.ts)',
		'Chats watched until they end (Conversation Ended)',
		written(MAX_WATCHED),
	],
	[
		'WATCH_TTL_MS (conversations.ts)',
		'A chat that has not ended is given up after (Conversation Ended)',
		hours(WATCH_TTL_MS),
	],
	[
		'MAX_TRACKED_LEADS (events/leadScan.ts)',
		'Leads watched (Lead Status Changed)',
		written(MAX_TRACKED_LEADS),
	],
	[
		'PROCESSING_PAGES, PER_PAGE (events/leadScan.ts, pages.ts)',
		'Leads in a call read first by each poll of the first round (Lead Status Changed)',
		`${PROCESSING_PAGES} requests of ${PER_PAGE}`,
	],
	[
		'FLIGHT_TAKEOVER_MS (singleFlight.ts)',
		'A poll still running is taken over by the next one after',
		hours(FLIGHT_TAKEOVER_MS),
	],
];

/** A number written as digits, not part of a word such as "n8n". */
const DIGITS = /(?<![A-Za-z0-9_])\d+/g;

describe.each([
	['Webhook trigger limits', WEBHOOK_LIMITS],
	['Polling trigger limits', POLLING_LIMITS],
])(`${GUIDE}, "## Limits" → "### %s" against the code`, (heading, limits) => {
	const rows = limitRows(heading);

	it.each(limits)('%s: the row "%s" shows "%s"', (_constants, row, expected) => {
		expect(rows.get(row)).toBe(expected);
	});

	it('has a row for each limit held here, and no other', () => {
		expect([...rows.keys()].sort()).toEqual(limits.map(([, row]) => row).sort());
	});

	it('writes numbers only in the Limit column (each of them held above)', () => {
		const lines = section(section(markdown, 'Limits'), heading).split('\n');
		const column = cells(lines.find((l) => l.startsWith('|'))!).indexOf('Limit');
		const text = lines
			.map((line) =>
				line.startsWith('|')
					? cells(line)
							.filter((_cell, i) => i !== column)
							.join(' | ')
					: line,
			)
			.join('\n');
		expect(text.match(DIGITS) ?? []).toEqual([]);
	});
});

describe(`${GUIDE}, "## Limits": the text above the two tables`, () => {
	it('holds no number of its own', () => {
		const intro = section(markdown, 'Limits').split(/^###\s/m)[0];
		expect(intro.match(DIGITS) ?? []).toEqual([]);
	});
});

describe('the bounds of Timeout (Seconds) shown in the guide', () => {
	const node: INode = {
		id: 'tool',
		name: 'Voice Chat Assistant Trigger',
		type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const definition = (timeout: number) => {
		const parameters: IDataObject = {
			toolName: 'check_free_slot',
			toolDescription: 'Checks whether a slot is free.',
			toolTimeout: timeout,
		};
		return () =>
			readDefinition({
				getNode: () => node,
				getNodeParameter: ((name: string, fallback?: unknown) =>
					parameters[name] ?? fallback) as never,
			});
	};

	it("are the editor's (minValue, maxValue) and the ones activation checks", () => {
		expect((timeoutField as INodeProperties).default).toBe(DEFAULT_TIMEOUT);
		expect(definition(TIMEOUT_MIN)).not.toThrow();
		expect(definition(TIMEOUT_MAX)).not.toThrow();
		expect(definition(TIMEOUT_MIN - 1)).toThrow(/Timeout \(Seconds\)/);
		expect(definition(TIMEOUT_MAX + 1)).toThrow(/Timeout \(Seconds\)/);
	});
});
