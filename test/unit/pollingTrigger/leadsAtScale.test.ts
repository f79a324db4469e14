/**
 * Lead Status Changed at a real campaign's size, and what survives a restart:
 * a campaign of 100,000 leads that calls its leads while the trigger polls
 * (started right after activation, in both orders the lead list may have),
 * every final status emitted exactly once within the request ceiling; the
 * leads past the snapshot's limit reported to the workflow; a restart of n8n
 * modelled as n8n's default poller saves (the static data of the last poll
 * that emitted), for leads and for campaigns.
 *
 * The service is answered in memory (no HTTP): 100,000 leads take thousands
 * of requests.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { leadLimits } from '../../../nodes/VoiceChatAssistantPollingTrigger/events/leadScan';
import { restartProcessForTests } from '../../../nodes/VoiceChatAssistantPollingTrigger/events/process';
import { MAX_REQUESTS_PER_POLL } from '../../../nodes/VoiceChatAssistantPollingTrigger/pages';
import { TEST_BASE_URL } from '../../helpers/context';
import { poller as pollContext } from '../../helpers/pollContext';
import { fakeClockPerTest } from '../../helpers/fakeClock';

const node = new VoiceChatAssistantPollingTrigger();
const OUTCOMES = ['completed', 'reached-max-retries', 'blacklisted'];

interface Lead extends IDataObject {
	id: number;
	status: string;
	updated_at: string;
}

/** The lead list and the campaign list of one account, as the service answers them. */
class Service {
	leads: Lead[] = []; // ascending ids
	private byId = new Map<number, Lead>();
	private processing = new Set<number>();
	private next = 0; // index of the next lead to call
	private second = 0;
	requests: Array<{ path: string; qs: IDataObject }> = [];
	campaigns: IDataObject[] = [];

	constructor(
		count: number,
		public order: 'newest' | 'oldest',
	) {
		for (let id = 1; id <= count; id++) this.add(id);
	}

	private now() {
		this.second++;
		const time = new Date(Date.UTC(2026, 10, 1) + this.second * 1000);
		return time.toISOString().slice(0, 19).replace('T', ' ');
	}

	add(id: number, status = 'created') {
		const lead: Lead = {
			id,
			campaign_id: 5,
			phone_number: `+1415${String(id).padStart(7, '0')}`,
			status,
			updated_at: this.now(),
		};
		this.leads.push(lead);
		this.byId.set(id, lead);
	}

	set(id: number, status: string) {
		const lead = this.byId.get(id) as Lead;
		lead.status = status;
		lead.updated_at = this.now();
		if (status === 'processing') this.processing.add(id);
		else this.processing.delete(id);
	}

	/** One step of a running campaign: calls end (lead id → outcome), then up to `parallel` calls start. */
	tick(parallel: number) {
		for (const id of [...this.processing])
			this.set(id, OUTCOMES[id % 7 === 0 ? 1 : id % 11 === 0 ? 2 : 0]);
		let started = 0;
		for (; this.next < this.leads.length && started < parallel; this.next++) {
			const lead = this.leads[this.next];
			if (lead.status !== 'created') continue;
			this.set(lead.id, 'processing');
			started++;
		}
		return this.processing.size > 0 || this.next < this.leads.length;
	}

	answer(request: IHttpRequestOptions): IDataObject | IDataObject[] {
		const path = new URL(request.url, TEST_BASE_URL).pathname;
		const qs = (request.qs ?? {}) as IDataObject;
		this.requests.push({ path, qs });
		if (path === '/api/user/campaigns') return this.campaigns.map((c) => ({ ...c }));
		const perPage = Number(qs.per_page);
		const page = Number(qs.page);
		let rows: Lead[];
		if (qs.status) rows = this.leads.filter((lead) => lead.status === qs.status);
		else rows = this.leads;
		const total = rows.length;
		const from = (page - 1) * perPage;
		const to = Math.min(total, from + perPage);
		const data: IDataObject[] = [];
		for (let i = from; i < to; i++) {
			const lead = this.order === 'oldest' ? rows[i] : rows[total - 1 - i];
			data.push({ ...lead });
		}
		return {
			current_page: page,
			data,
			per_page: perPage,
			total,
			next_page_url: to < total ? `${TEST_BASE_URL}/api/user/leads?page=${page + 1}` : null,
		};
	}
}

const poller = (service: Service, parameters: IDataObject, staticData: IDataObject) =>
	pollContext(parameters, staticData, { answer: (request) => service.answer(request) });

type Output = Array<Array<{ json: IDataObject }>> | null;
const json = (output: unknown) => (output as Output)?.[0].map((item) => item.json) ?? [];

const LEADS = { event: 'leadStatusChanged', campaignId: { __rl: true, mode: 'id', value: '5' } };

/**
 * n8n's default poller: the node's static data is saved only when a poll emits
 * (and at activation); a restart brings back the last saved copy. With durable
 * poll cursors (n8n 2.36+, N8N_POLLER_DURABLE_CURSORS_ENABLED) it is saved
 * after every poll.
 */
class N8n {
	state: IDataObject = {};
	private saved: IDataObject = {};
	constructor(
		private service: Service,
		private parameters: IDataObject,
		private durableCursors = false,
	) {}

	async poll() {
		const before = this.service.requests.length;
		const output = await node.poll.call(poller(this.service, this.parameters, this.state));
		const requests = this.service.requests.length - before;
		if (this.durableCursors || output !== null || Object.keys(this.saved).length === 0)
			this.saved = JSON.parse(JSON.stringify(this.state));
		return { items: json(output), requests };
	}

	restart() {
		restartProcessForTests();
		this.state = JSON.parse(JSON.stringify(this.saved));
	}
}

describe('Lead Status Changed at scale and across restarts', () => {
	fakeClockPerTest();
	afterEach(() => {
		leadLimits.tracked = 200_000;
	});

	it.each(['newest', 'oldest'] as const)(
		'a campaign of 100,000 leads started right after activation, list %s first: every final status once, within 10 requests a poll',
		async (order) => {
			const service = new Service(100_000, order);
			const n8n = new N8n(service, LEADS);
			const emitted = new Map<number, IDataObject[]>();
			let most = 0;
			let biggest = 0;
			let polls = 0;
			const poll = async () => {
				const { items, requests } = await n8n.poll();
				polls++;
				most = Math.max(most, requests);
				biggest = Math.max(biggest, JSON.stringify(n8n.state).length);
				for (const item of items) {
					const id = Number(item.id);
					emitted.set(id, [...(emitted.get(id) ?? []), item]);
				}
			};
			await poll(); // activation
			// the campaign calls 300 leads at a time (the first round reads 300 leads in a call
			// a poll), one step between two polls
			while (service.tick(300)) await poll();
			// one more round reads every page once more
			for (let i = 0; i < 100; i++) await poll();
			expect(most).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
			expect(emitted.size).toBe(100_000);
			// each lead once, with the status it ended with and the one the trigger saw before
			// (processing when the trigger read the lead during its call, else created)
			const wrong = service.leads.filter((lead) => {
				const items = emitted.get(lead.id) ?? [];
				return (
					items.length !== 1 ||
					items[0].status !== lead.status ||
					!['processing', 'created'].includes(String(items[0].previous_status))
				);
			});
			expect(wrong).toEqual([]);
			// the first completions, while the first round still reads, come with "processing"
			expect(emitted.get(1)?.[0].previous_status).toBe('processing');
			// the measured cost, for docs/trigger.md
			expect(biggest).toBeLessThan(80_000);
			process.stdout.write(
				`100,000 leads (${order} first): ${polls} polls, at most ${most} requests a poll, static data at most ${biggest} bytes\n`,
			);
		},
		120_000,
	);

	it.each(['newest', 'oldest'] as const)(
		'the first reading of 5,000 leads, list %s first: a lead seen in its call is emitted when it ends; one changed between two polls before the reading reaches it is noted without an item',
		async (order) => {
			const service = new Service(5_000, order);
			const n8n = new N8n(service, LEADS);
			// the first poll reads the list's first 1,000 leads: the others are read later
			const [seenInCall, betweenPolls, readAlready] =
				order === 'newest' ? [10, 20, 4_990] : [4_990, 4_980, 10];
			const items: IDataObject[] = [...(await n8n.poll()).items];
			service.set(seenInCall, 'processing');
			service.set(betweenPolls, 'processing');
			service.set(betweenPolls, 'completed');
			service.set(readAlready, 'completed');
			items.push(...(await n8n.poll()).items);
			service.set(seenInCall, 'completed');
			for (let i = 0; i < 20; i++) items.push(...(await n8n.poll()).items);
			const changes = items
				.map((item) => [item.id, item.previous_status, item.status])
				.sort((a, b) => Number(a[0]) - Number(b[0]));
			expect(changes).toEqual(
				[
					[readAlready, 'created', 'completed'],
					[seenInCall, 'processing', 'completed'],
				].sort((a, b) => Number(a[0]) - Number(b[0])),
			);
		},
	);

	it('a lead set back to created and completed again across a restart of n8n is emitted again', async () => {
		const service = new Service(300, 'newest');
		const n8n = new N8n(service, LEADS);
		await n8n.poll(); // activation: the first round is one poll
		await n8n.poll();
		service.set(7, 'completed');
		expect((await n8n.poll()).items).toEqual([
			expect.objectContaining({ id: 7, previous_status: 'created', status: 'completed' }),
		]);
		// seen, not emitted: n8n does not save this poll
		service.set(7, 'created');
		expect((await n8n.poll()).items).toEqual([]);
		n8n.restart();
		service.set(7, 'completed');
		expect((await n8n.poll()).items).toEqual([
			expect.objectContaining({
				id: 7,
				previous_status: null,
				status: 'completed',
				after_restart: true,
			}),
		]);
		// once: neither the next polls nor the next round emit it again
		for (let i = 0; i < 3; i++) expect((await n8n.poll()).items).toEqual([]);
		// without a restart, nothing is marked: the next change is an ordinary one
		service.set(7, 'created');
		await n8n.poll();
		service.set(7, 'blacklisted');
		expect((await n8n.poll()).items).toEqual([
			expect.objectContaining({ id: 7, previous_status: 'created', status: 'blacklisted' }),
		]);
	});

	it('leads past the limit reach the workflow as an item naming them', async () => {
		leadLimits.tracked = 1_000;
		const service = new Service(1_030, 'newest');
		const n8n = new N8n(service, { ...LEADS, leadStatuses: [] });
		await n8n.poll(); // activation: pages 1-9
		const second = await n8n.poll(); // pages 10 and 11: leads 30 … 1 find the snapshot full
		expect(second.items).toEqual([
			expect.objectContaining({
				unwatched_leads: Array.from({ length: 30 }, (_, i) => 30 - i),
				unwatched_count: 30,
				limit: 1_000,
				message: expect.stringContaining('at most 1000 leads'),
			}),
		]);
		// the next round: not reported again
		expect((await n8n.poll()).items).toEqual([]);
		expect((await n8n.poll()).items).toEqual([]);
		// a new lead that finds the snapshot full: reported when the next round meets it
		service.add(1_031);
		const items = [...(await n8n.poll()).items, ...(await n8n.poll()).items];
		expect(items).toEqual([
			expect.objectContaining({ unwatched_leads: [1_031], unwatched_count: 1 }),
		]);
	});
});

describe('Campaign Status Changed across restarts', () => {
	fakeClockPerTest();
	const record = (status: string, updated: string) => ({
		id: 3,
		name: 'Autumn Calls',
		status,
		updated_at: updated,
	});

	it('only "started" watched: stop (not emitted, not saved), restart of n8n, start again: the second start is emitted', async () => {
		const service = new Service(0, 'newest');
		const n8n = new N8n(service, {
			event: 'campaignStatusChanged',
			campaignId: '',
			campaignChanges: ['started'],
		});
		service.campaigns = [record('draft', '2026-11-01T10:00:00.000000Z')];
		await n8n.poll();
		service.campaigns = [record('in-progress', '2026-11-01T10:01:00.000000Z')];
		expect((await n8n.poll()).items).toEqual([
			expect.objectContaining({ previous_status: 'draft', change: 'started' }),
		]);
		service.campaigns = [record('stopped', '2026-11-01T10:02:00.000000Z')];
		expect((await n8n.poll()).items).toEqual([]);
		n8n.restart();
		service.campaigns = [record('in-progress', '2026-11-01T10:03:00.000000Z')];
		expect((await n8n.poll()).items).toEqual([
			expect.objectContaining({
				status: 'in-progress',
				previous_status: null,
				change: 'started',
				after_restart: true,
			}),
		]);
		expect((await n8n.poll()).items).toEqual([]);
		// a restart with nothing changed meanwhile emits nothing
		n8n.restart();
		expect((await n8n.poll()).items).toEqual([]);
	});

	it('with durable poll cursors (every poll saved) the stop survives the restart: the second start is an ordinary change', async () => {
		const service = new Service(0, 'newest');
		const n8n = new N8n(
			service,
			{ event: 'campaignStatusChanged', campaignId: '', campaignChanges: ['started'] },
			true,
		);
		service.campaigns = [record('in-progress', '2026-11-01T10:01:00.000000Z')];
		await n8n.poll();
		service.campaigns = [record('stopped', '2026-11-01T10:02:00.000000Z')];
		expect((await n8n.poll()).items).toEqual([]);
		n8n.restart();
		service.campaigns = [record('in-progress', '2026-11-01T10:03:00.000000Z')];
		expect((await n8n.poll()).items).toEqual([
			{
				...record('in-progress', '2026-11-01T10:03:00.000000Z'),
				previous_status: 'stopped',
				change: 'started',
			},
		]);
	});
});
