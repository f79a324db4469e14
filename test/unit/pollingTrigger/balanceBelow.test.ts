/**
 * Balance Below: the exact request of each poll (one GET /api/user/me), one
 * item per crossing of the threshold, armed again by a top-up, nothing
 * repeated across a restart of n8n's default poller (which saves the state
 * only when a poll emits), Fetch Test Event with the current balance whatever
 * the threshold, and clear errors before and after a request.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { restartProcessForTests } from '../../../nodes/VoiceChatAssistantPollingTrigger/events/process';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { poller as pollContext } from '../../helpers/pollContext';
import { fakeClockPerTest } from '../../helpers/fakeClock';

const node = new VoiceChatAssistantPollingTrigger();

const poller = (parameters: IDataObject, staticData: IDataObject, manual = false) =>
	pollContext(parameters, staticData, { manual });

type Output = Array<Array<{ json: IDataObject }>> | null;
const json = (output: unknown) => (output as Output)?.[0].map((item) => item.json) ?? [];

/** The profile as the service answers it (not wrapped), with the balance of the moment. */
function serveBalance() {
	const account = { balance: 50 as unknown, requests: [] as Array<{ auth: unknown }> };
	nock(TEST_BASE_URL)
		.persist()
		.get('/api/user/me')
		.reply(function () {
			account.requests.push({ auth: this.req.headers.authorization });
			return [
				200,
				{ name: 'Sim Tester', email: 'sim.tester@example.com', total_balance: account.balance },
			];
		});
	return account;
}

/**
 * n8n's default poller: the node's static data is saved only when a poll emits
 * (and at activation); a restart brings back the last saved copy. With durable
 * poll cursors (n8n 2.36+) it is saved after every poll.
 */
class N8n {
	state: IDataObject = {};
	private saved: IDataObject = {};
	constructor(
		private parameters: IDataObject,
		private durableCursors = false,
	) {}

	async poll() {
		const output = await node.poll.call(poller(this.parameters, this.state));
		if (this.durableCursors || output !== null || Object.keys(this.saved).length === 0)
			this.saved = JSON.parse(JSON.stringify(this.state));
		return json(output);
	}

	restart() {
		restartProcessForTests();
		this.state = JSON.parse(JSON.stringify(this.saved));
	}

	/** A new version published in the same process: n8n reads the saved copy. */
	reactivate() {
		this.state = JSON.parse(JSON.stringify(this.saved));
	}
}

const BELOW_10 = { event: 'balanceBelow', balanceThreshold: 10 };

describe('Balance Below', () => {
	const clock = fakeClockPerTest(Date.UTC(2026, 10, 29, 8, 0, 0));

	it('50 → 9 with a threshold of 10: one item; 9 for three more polls: none; 20 then 5: one more; one request per poll', async () => {
		const account = serveBalance();
		const n8n = new N8n(BELOW_10);
		expect(await n8n.poll()).toEqual([]); // activation: notes 50
		expect(account.requests).toEqual([{ auth: `Bearer ${TEST_API_KEY}` }]);

		account.balance = 9;
		clock.advance(60_000);
		expect(await n8n.poll()).toEqual([
			{
				balance: 9,
				threshold: 10,
				previous_balance: 50,
				below: true,
				below_since: '2026-11-29T08:01:00.000Z',
				currency: 'USD',
			},
		]);
		for (let i = 0; i < 3; i++) expect(await n8n.poll()).toEqual([]);

		account.balance = 20; // a top-up arms it again
		expect(await n8n.poll()).toEqual([]);
		account.balance = 5;
		clock.advance(60_000);
		expect(await n8n.poll()).toEqual([
			expect.objectContaining({
				balance: 5,
				previous_balance: 20,
				below_since: '2026-11-29T08:02:00.000Z',
			}),
		]);
		expect(await n8n.poll()).toEqual([]);
		expect(account.requests).toHaveLength(8);
	});

	it('the threshold itself is not below: 10 with a threshold of 10 emits nothing, 9.99 emits', async () => {
		const account = serveBalance();
		const n8n = new N8n(BELOW_10);
		await n8n.poll();
		account.balance = 10;
		expect(await n8n.poll()).toEqual([]);
		account.balance = 9.99;
		expect(await n8n.poll()).toEqual([expect.objectContaining({ balance: 9.99 })]);
	});

	it('the first poll notes a balance already below and emits nothing until a top-up arms it', async () => {
		const account = serveBalance();
		account.balance = 4;
		const n8n = new N8n(BELOW_10);
		expect(await n8n.poll()).toEqual([]);
		expect(await n8n.poll()).toEqual([]);
		account.balance = 30;
		expect(await n8n.poll()).toEqual([]);
		account.balance = 3;
		expect(await n8n.poll()).toEqual([
			expect.objectContaining({ balance: 3, previous_balance: 30 }),
		]);
	});

	it('a restart of n8n between polls repeats nothing', async () => {
		const account = serveBalance();
		const n8n = new N8n(BELOW_10);
		await n8n.poll();
		account.balance = 9;
		expect(await n8n.poll()).toHaveLength(1);
		account.balance = 8.5; // spent further, not saved (nothing emitted)
		expect(await n8n.poll()).toEqual([]);
		n8n.restart();
		expect(await n8n.poll()).toEqual([]);
		n8n.restart();
		account.balance = 8;
		expect(await n8n.poll()).toEqual([]);
	});

	it('a top-up lost at a restart (not saved: nothing was emitted) still brings the next crossing, marked after_restart', async () => {
		const account = serveBalance();
		const n8n = new N8n(BELOW_10);
		await n8n.poll();
		account.balance = 9;
		expect(await n8n.poll()).toHaveLength(1);
		account.balance = 25; // armed again, in memory only
		expect(await n8n.poll()).toEqual([]);
		n8n.restart();
		account.balance = 9.5; // below again, above the saved 9
		expect(await n8n.poll()).toEqual([
			expect.objectContaining({ balance: 9.5, previous_balance: 9, after_restart: true }),
		]);
		expect(await n8n.poll()).toEqual([]);
	});

	it('a new version published (n8n reads the saved copy) in the same process: a top-up n8n did not save still brings the next crossing; nothing old otherwise', async () => {
		const account = serveBalance();
		const n8n = new N8n(BELOW_10);
		await n8n.poll();
		account.balance = 9;
		expect(await n8n.poll()).toHaveLength(1);
		account.balance = 40; // topped up, then the workflow is deactivated
		expect(await n8n.poll()).toEqual([]);
		account.balance = 6; // spent below again while it was off
		n8n.reactivate();
		expect(await n8n.poll()).toEqual([
			{
				balance: 6,
				threshold: 10,
				previous_balance: 40,
				below: true,
				below_since: '2026-11-29T08:00:00.000Z',
				currency: 'USD',
			},
		]);
		// off while below, topped up and spent again while off, back above at activation: nothing
		account.balance = 5;
		expect(await n8n.poll()).toEqual([]);
		n8n.reactivate();
		account.balance = 12;
		expect(await n8n.poll()).toEqual([]);
		account.balance = 11;
		expect(await n8n.poll()).toEqual([]);
	});

	it('the limit: a top-up and a fall below the saved balance, both while n8n was stopped, are not seen (default poller)', async () => {
		const account = serveBalance();
		const n8n = new N8n(BELOW_10);
		await n8n.poll();
		account.balance = 9;
		expect(await n8n.poll()).toHaveLength(1);
		n8n.restart();
		account.balance = 7; // 9 → 40 → 7 while stopped
		expect(await n8n.poll()).toEqual([]);
	});

	it('with durable poll cursors a top-up is saved: the crossing after a restart is emitted unmarked', async () => {
		const account = serveBalance();
		const n8n = new N8n(BELOW_10, true);
		await n8n.poll();
		account.balance = 9;
		expect(await n8n.poll()).toHaveLength(1);
		account.balance = 25;
		expect(await n8n.poll()).toEqual([]);
		n8n.restart();
		account.balance = 7;
		expect(await n8n.poll()).toEqual([
			expect.objectContaining({ balance: 7, previous_balance: 25 }),
		]);
	});

	it('a new threshold starts afresh: its first poll only notes the balance', async () => {
		const account = serveBalance();
		const n8n = new N8n(BELOW_10);
		await n8n.poll();
		account.balance = 15;
		const higher = new N8n({ event: 'balanceBelow', balanceThreshold: 20 });
		higher.state = n8n.state;
		expect(await higher.poll()).toEqual([]);
		account.balance = 14;
		expect(await higher.poll()).toEqual([]);
		account.balance = 21;
		await higher.poll();
		account.balance = 19;
		expect(await higher.poll()).toEqual([expect.objectContaining({ threshold: 20 })]);
	});

	it('Fetch Test Event shows the current balance whatever the threshold, and remembers nothing', async () => {
		const account = serveBalance();
		account.balance = 25.5;
		const state: IDataObject = {};
		const output = await node.poll.call(poller(BELOW_10, state, true));
		expect(json(output)).toEqual([
			{
				balance: 25.5,
				threshold: 10,
				previous_balance: null,
				below: false,
				below_since: null,
				currency: 'USD',
			},
		]);
		expect(state).toEqual({});
		account.balance = '3.25'; // a numeric string is read as its number
		expect(json(await node.poll.call(poller(BELOW_10, state, true)))).toEqual([
			expect.objectContaining({
				balance: 3.25,
				below: true,
				below_since: '2026-11-29T08:00:00.000Z',
			}),
		]);
	});

	it('a threshold that is not a number is refused before any request, naming the field', async () => {
		nock.disableNetConnect();
		await expect(
			node.poll.call(poller({ event: 'balanceBelow', balanceThreshold: 'ten' }, {})),
		).rejects.toThrow('Threshold (USD) must be a number, got "ten"');
	});

	it('a profile without a balance fails the poll with what it got, and keeps the saved state', async () => {
		const account = serveBalance();
		const n8n = new N8n(BELOW_10);
		await n8n.poll();
		const before = JSON.stringify(n8n.state);
		account.balance = null;
		await expect(n8n.poll()).rejects.toThrow(
			"The service's profile (GET /api/user/me) has no total_balance to compare, got null",
		);
		expect(JSON.stringify(n8n.state)).toBe(before);
		account.balance = 5;
		expect(await n8n.poll()).toEqual([expect.objectContaining({ balance: 5 })]);
	});

	it('a refused key fails the poll with the service message and never shows the key', async () => {
		nock(TEST_BASE_URL).get('/api/user/me').reply(401, { message: 'Unauthenticated.' });
		const error = await node.poll.call(poller(BELOW_10, {})).then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error).toBeDefined();
		expect(`${error?.message} ${JSON.stringify(error)}`).toContain('Unauthenticated');
		expect(`${error?.message} ${JSON.stringify(error)}`).not.toContain(TEST_API_KEY);
	});
});
