/**
 * Lead Status Changed and Campaign Status Changed: the exact requests of each
 * poll, nothing old on the first poll, each change once, the request ceiling
 * per poll whatever the campaign's size, the snapshot's bound (logged with the
 * ids past it), and a saved state that moves only when a poll returns.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import type { PackedStatuses } from '../../../nodes/VoiceChatAssistantPollingTrigger/events/leadStatuses';
import { unpackStatuses } from '../../../nodes/VoiceChatAssistantPollingTrigger/events/leadStatuses';
import { MAX_REQUESTS_PER_POLL } from '../../../nodes/VoiceChatAssistantPollingTrigger/pages';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { poller as pollContext } from '../../helpers/pollContext';
import { fakeClockPerTest } from '../../helpers/fakeClock';

const node = new VoiceChatAssistantPollingTrigger();

const poller = (
	parameters: IDataObject,
	staticData: IDataObject,
	warnings: string[] = [],
	manual = false,
) => pollContext(parameters, staticData, { warnings, manual });

type Output = Array<Array<{ json: IDataObject }>> | null;
const json = (output: unknown) => (output as Output)?.[0].map((item) => item.json) ?? null;

interface Request {
	query: Record<string, string>;
	authorization: string | undefined;
}

/**
 * The lead list as the service answers it: newest first, Laravel's envelope, the status filter;
 * every request of the round recorded in order, the reads of the leads in a call
 * (`status=processing`, first round only) in `requests.processing`.
 */
function serveLeads(rows: () => IDataObject[], fault: (index: number) => boolean = () => false) {
	const requests = Object.assign([] as Request[], { processing: [] as Request[] });
	nock(TEST_BASE_URL)
		.persist()
		.get('/api/user/leads')
		.query(true)
		.reply(function (uri) {
			const url = new URL(uri, TEST_BASE_URL);
			const status = url.searchParams.get('status');
			const request = {
				query: Object.fromEntries(url.searchParams),
				authorization: this.req.headers.authorization as string | undefined,
			};
			if (status) requests.processing.push(request);
			else requests.push(request);
			if (!status && fault(requests.length)) return [500, { message: 'Server Error' }];
			const all = rows().filter((lead) => !status || lead.status === status);
			const perPage = Number(url.searchParams.get('per_page') ?? 15);
			const page = Number(url.searchParams.get('page') ?? 1);
			const lastPage = Math.max(1, Math.ceil(all.length / perPage));
			return [
				200,
				{
					current_page: page,
					data: all.slice((page - 1) * perPage, page * perPage),
					last_page: lastPage,
					next_page_url:
						page < lastPage ? `${TEST_BASE_URL}/api/user/leads?page=${page + 1}` : null,
					per_page: perPage,
					total: all.length,
				},
			];
		});
	return requests;
}

/** Leads 1..n of campaign 5, newest first, with a status each. */
function campaign(count: number, status = 'created') {
	const leads: IDataObject[] = [];
	for (let id = count; id >= 1; id--)
		leads.push({
			id,
			campaign_id: 5,
			phone_number: `+1415555${String(id).padStart(4, '0')}`,
			status,
		});
	const byId = (id: number) => leads.find((lead) => lead.id === id) as IDataObject;
	return {
		leads,
		set(id: number, status: string) {
			byId(id).status = status;
		},
		add(id: number, status = 'created') {
			leads.unshift({
				id,
				campaign_id: 5,
				phone_number: `+1415556${String(id).padStart(4, '0')}`,
				status,
			});
		},
	};
}

/** The snapshot's statuses as a plain id → status object. */
function statusesOf(state: IDataObject): Record<string, string> {
	const saved = (state.leads as { statuses: PackedStatuses }).statuses;
	return Object.fromEntries([...unpackStatuses(saved)].map(([id, status]) => [String(id), status]));
}

/** The page numbers the requests asked for, in order. */
const pagesOf = (requests: Request[]) => requests.map((request) => request.query.page);
/** The page numbers first … last, as the query carries them. */
const pageRange = (first: number, last: number) =>
	Array.from({ length: last - first + 1 }, (_, i) => String(first + i));

const LEADS = { event: 'leadStatusChanged', campaignId: { __rl: true, mode: 'id', value: '5' } };
const page = (n: number) => ({ campaign_id: '5', per_page: '100', page: String(n) });

describe('Lead Status Changed', () => {
	fakeClockPerTest();

	it('emits nothing on the first poll, then each change to a watched status once, with previous_status', async () => {
		const list = campaign(3);
		list.set(1, 'completed');
		const requests = serveLeads(() => list.leads);
		const state: IDataObject = {};
		// default: the final statuses
		expect(await node.poll.call(poller(LEADS, state))).toBeNull();
		expect([...requests]).toEqual([{ query: page(1), authorization: `Bearer ${TEST_API_KEY}` }]);
		// the first round reads the leads in a call first
		expect(requests.processing).toEqual([
			{ query: { ...page(1), status: 'processing' }, authorization: `Bearer ${TEST_API_KEY}` },
		]);

		list.set(2, 'processing'); // not watched
		list.set(3, 'processing');
		expect(await node.poll.call(poller(LEADS, state))).toBeNull();

		list.set(2, 'completed');
		list.set(3, 'reached-max-retries');
		list.add(4, 'blacklisted'); // a new lead, already in a watched status
		list.add(5); // a new lead, created
		expect(json(await node.poll.call(poller(LEADS, state)))).toEqual([
			expect.objectContaining({ id: 4, previous_status: null, status: 'blacklisted' }),
			expect.objectContaining({
				id: 3,
				previous_status: 'processing',
				status: 'reached-max-retries',
				phone_number: '+14155550003',
			}),
			expect.objectContaining({ id: 2, previous_status: 'processing', status: 'completed' }),
		]);
		expect(await node.poll.call(poller(LEADS, state))).toBeNull();
		expect(requests).toHaveLength(4);
		expect(
			requests.every((request) => JSON.stringify(request.query) === JSON.stringify(page(1))),
		).toBe(true);
	});

	it('with no status chosen, every change is emitted; the campaign filter is optional', async () => {
		const list = campaign(2);
		const requests = serveLeads(() => list.leads);
		const state: IDataObject = {};
		const all = { event: 'leadStatusChanged', campaignId: '', leadStatuses: [] };
		await node.poll.call(poller(all, state));
		list.set(1, 'processing');
		expect(json(await node.poll.call(poller(all, state)))).toEqual([
			expect.objectContaining({ id: 1, previous_status: 'created', status: 'processing' }),
		]);
		list.set(1, 'rescheduled');
		expect(json(await node.poll.call(poller(all, state)))).toEqual([
			expect.objectContaining({ id: 1, previous_status: 'processing', status: 'rescheduled' }),
		]);
		expect(requests.map((request) => request.query)).toEqual(
			Array(3).fill({ per_page: '100', page: '1' }),
		);
	});

	it('a campaign of 10,000 leads: at most 10 requests per poll, a round of 10 polls, each change once when its page is read', async () => {
		const list = campaign(10_000);
		const requests = serveLeads(() => list.leads);
		const state: IDataObject = {};
		const perPoll: string[][] = [];
		const emitted: number[][] = [];
		const poll = async () => {
			const before = requests.length;
			const processing = requests.processing.length;
			emitted.push(
				(json(await node.poll.call(poller(LEADS, state))) ?? []).map((lead) => Number(lead.id)),
			);
			perPoll.push(requests.slice(before).map((request) => request.query.page));
			expect(
				requests.length - before + requests.processing.length - processing,
			).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
			for (const request of requests.slice(before))
				expect(request.query).toEqual(page(Number(request.query.page)));
		};
		// the first round: the leads in a call (one request), then 9 pages a poll: 12 polls
		for (let i = 0; i < 12; i++) await poll();
		expect(perPoll[0]).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
		expect(perPoll[11]).toEqual(['100']);
		expect(requests.processing).toHaveLength(12);
		perPoll.length = 0;
		emitted.length = 0;
		list.set(9_990, 'completed'); // page 1
		list.set(8_500, 'completed'); // page 15
		list.set(50, 'completed'); // page 100
		for (let i = 0; i < 11; i++) await poll();
		expect(requests.processing).toHaveLength(12); // later rounds read the list only
		expect(perPoll.map((pages) => pages.length)).toEqual(Array(11).fill(MAX_REQUESTS_PER_POLL));
		expect(perPoll[0]).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
		expect(perPoll[1]).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
		expect(perPoll[9]).toEqual(['91', '92', '93', '94', '95', '96', '97', '98', '99', '100']);
		expect(perPoll[10]).toEqual(perPoll[0]); // the next round starts at the top
		expect(emitted).toEqual([[9_990], [8_500], [], [], [], [], [], [], [], [50], []]);
	}, 60_000);

	it('new leads at the top during a round move the pages down: leads are read again, none is skipped', async () => {
		const list = campaign(1_500);
		const requests = serveLeads(() => list.leads);
		const state: IDataObject = {};
		// the leads in a call (none), then pages 1-9: leads 1,500 … 601
		await node.poll.call(poller(LEADS, state));
		expect(pagesOf(requests)).toEqual(pageRange(1, 9));
		for (let id = 1_501; id <= 1_550; id++) list.add(id);
		list.set(601, 'completed'); // the oldest lead read by the first poll
		list.set(1, 'completed'); // not read yet: it is recorded as it is now, like every lead of the first round
		const before = requests.length;
		expect(json(await node.poll.call(poller(LEADS, state)))?.map((lead) => lead.id)).toEqual([601]);
		// the page of lead 600 under the old total holds leads 650 … 551 now: 601 … 650 are read again
		expect(pagesOf(requests.slice(before))).toEqual(pageRange(10, 16));
		expect(statusesOf(state)['1']).toBe('completed');
		// the next round starts at the top: the new leads are read there (emitted when in a watched status)
		list.set(1_550, 'completed');
		expect(json(await node.poll.call(poller(LEADS, state)))?.map((lead) => lead.id)).toEqual([
			1_550,
		]);
	});

	it('a poll that fails on its second page keeps the saved state: the next poll emits the same change, once', async () => {
		const list = campaign(250);
		let failAt = Number.POSITIVE_INFINITY;
		const requests = serveLeads(
			() => list.leads,
			(index) => index >= failAt && index < failAt + 3,
		);
		const state: IDataObject = {};
		await node.poll.call(poller(LEADS, state));
		list.set(240, 'completed'); // page 1
		const saved = JSON.parse(JSON.stringify(state));
		failAt = requests.length + 2;
		await expect(node.poll.call(poller(LEADS, state))).rejects.toThrow('Server Error');
		// page 2 sent again twice after its 500s (a read is safe to repeat), then the poll fails
		expect(pagesOf(requests)).toEqual(['1', '2', '3', '1', '2', '2', '2']);
		expect(state).toEqual(saved);
		expect(json(await node.poll.call(poller(LEADS, state)))?.map((lead) => lead.id)).toEqual([240]);
		expect(await node.poll.call(poller(LEADS, state))).toBeNull();
	});

	it('the first round records and emits nothing old, also when the service lists the oldest lead first', async () => {
		const list = campaign(1_500, 'completed');
		const ascending = () => [...list.leads].reverse();
		const requests = serveLeads(ascending);
		const state: IDataObject = {};
		const parameters = { ...LEADS, leadStatuses: [] };
		expect(await node.poll.call(poller(parameters, state))).toBeNull(); // pages 1-10: leads 1 … 1,000
		expect(await node.poll.call(poller(parameters, state))).toBeNull(); // pages 11-15: leads 1,001 … 1,500
		expect(pagesOf(requests)).toEqual(pageRange(1, 15));
		list.add(1_501, 'created');
		list.set(2, 'blacklisted');
		const emitted: IDataObject[] = [];
		for (let i = 0; i < 2; i++)
			emitted.push(...(json(await node.poll.call(poller(parameters, state))) ?? []));
		expect(emitted).toEqual([
			expect.objectContaining({ id: 2, previous_status: 'completed', status: 'blacklisted' }),
			expect.objectContaining({ id: 1_501, previous_status: null, status: 'created' }),
		]);
	});

	it('a deleted lead leaves the snapshot', async () => {
		const list = campaign(5);
		serveLeads(() => list.leads);
		const state: IDataObject = {};
		await node.poll.call(poller(LEADS, state));
		list.leads.splice(1, 1); // lead 4
		await node.poll.call(poller(LEADS, state));
		expect(Object.keys(statusesOf(state)).sort()).toEqual(['1', '2', '3', '5']);
	});

	it('Fetch Test Event shows the newest lead in a watched status and keeps no state', async () => {
		const list = campaign(3);
		list.set(2, 'completed');
		serveLeads(() => list.leads);
		const state: IDataObject = {};
		expect(json(await node.poll.call(poller(LEADS, state, [], true)))).toEqual([
			expect.objectContaining({ id: 2, status: 'completed', previous_status: null }),
		]);
		expect(state).toEqual({});
	});

	it('refuses a campaign that is not a numeric ID, or an unknown status, before asking', async () => {
		await expect(
			node.poll.call(poller({ ...LEADS, campaignId: { __rl: true, mode: 'id', value: 'x1' } }, {})),
		).rejects.toThrow('Campaign must be a numeric ID, got "x1"');
		await expect(node.poll.call(poller({ ...LEADS, leadStatuses: ['done'] }, {}))).rejects.toThrow(
			'Statuses must be among created, scheduled',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});
});

describe('Campaign Status Changed', () => {
	fakeClockPerTest();
	const CAMPAIGNS = { event: 'campaignStatusChanged', campaignId: '' };
	const record = (id: number, status: string) => ({ id, name: `Campaign ${id}`, status });
	const serve = (campaigns: IDataObject[]) =>
		nock(TEST_BASE_URL)
			.get('/api/user/campaigns')
			.matchHeader('authorization', `Bearer ${TEST_API_KEY}`)
			.reply(200, campaigns);

	it('one request per poll; started, stopped and completed once each; nothing old on the first poll', async () => {
		const state: IDataObject = {};
		serve([record(1, 'in-progress'), record(2, 'draft')]);
		expect(await node.poll.call(poller(CAMPAIGNS, state))).toBeNull();
		serve([record(1, 'in-progress'), record(2, 'in-progress'), record(3, 'draft')]);
		expect(json(await node.poll.call(poller(CAMPAIGNS, state)))).toEqual([
			{ ...record(2, 'in-progress'), previous_status: 'draft', change: 'started' },
		]);
		serve([record(1, 'completed'), record(2, 'stopped'), record(3, 'draft')]);
		expect(json(await node.poll.call(poller(CAMPAIGNS, state)))).toEqual([
			{ ...record(1, 'completed'), previous_status: 'in-progress', change: 'completed' },
			{ ...record(2, 'stopped'), previous_status: 'in-progress', change: 'stopped' },
		]);
		serve([record(1, 'completed'), record(2, 'stopped')]);
		expect(await node.poll.call(poller(CAMPAIGNS, state))).toBeNull();
		expect(nock.isDone()).toBe(true);
	});

	it('started and completed while n8n was down (between two polls, the state saved): one item, completed', async () => {
		const saved: IDataObject = {};
		serve([record(4, 'draft')]);
		expect(await node.poll.call(poller(CAMPAIGNS, saved))).toBeNull();
		// n8n restarts with the saved static data; the campaign ran meanwhile
		const state = JSON.parse(JSON.stringify(saved)) as IDataObject;
		serve([record(4, 'completed')]);
		expect(json(await node.poll.call(poller(CAMPAIGNS, state)))).toEqual([
			{ ...record(4, 'completed'), previous_status: 'draft', change: 'completed' },
		]);
	});

	it('the campaign and the chosen changes filter; a move within one group (active, in-progress) is no change', async () => {
		const state: IDataObject = {};
		const parameters = {
			event: 'campaignStatusChanged',
			campaignId: { __rl: true, mode: 'list', value: '2' },
			campaignChanges: ['completed'],
		};
		serve({ data: [record(1, 'draft'), record(2, 'active')] } as unknown as IDataObject[]);
		await node.poll.call(poller(parameters, state));
		serve([record(1, 'completed'), record(2, 'in-progress')]);
		expect(await node.poll.call(poller(parameters, state))).toBeNull();
		serve([record(1, 'completed'), record(2, 'completed')]);
		expect(json(await node.poll.call(poller(parameters, state)))).toEqual([
			{ ...record(2, 'completed'), previous_status: 'in-progress', change: 'completed' },
		]);
	});

	it('refuses an empty or unknown change before asking', async () => {
		await expect(node.poll.call(poller({ ...CAMPAIGNS, campaignChanges: [] }, {}))).rejects.toThrow(
			'Changes must name at least one of started, stopped, completed',
		);
		await expect(
			node.poll.call(poller({ ...CAMPAIGNS, campaignChanges: ['paused'] }, {})),
		).rejects.toThrow('Changes must be among started, stopped, completed, got "paused"');
	});
});
