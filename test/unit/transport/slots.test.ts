import nock from 'nock';

import { InFlightSlots } from '../../../nodes/VoiceChatAssistant/transport/concurrency';
import { sendRequest } from '../../../nodes/VoiceChatAssistant/transport/request';
import { TEST_BASE_URL, createContext } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';

/** The in-flight slots reach the transport as an option of the request. */
describe('a request given the slots of its node run', () => {
	const time = fakeClockPerTest();

	function slotsDuringSleeps(slots: InFlightSlots): number[] {
		const seen: number[] = [];
		const sleep = time.clock.sleep;
		time.clock.sleep = async (ms: number) => {
			seen.push(slots.inFlight);
			await sleep(ms);
		};
		return seen;
	}

	it('gives its item slot back while it waits for a backoff, and takes it again before sending', async () => {
		const slots = new InFlightSlots(() => 1);
		await slots.take();
		const seen = slotsDuringSleeps(slots);
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/me')
			.reply(502, 'Bad Gateway')
			.get('/api/user/me')
			.reply(200, { data: { id: 1 } });
		const { context } = createContext({ parameters: {} });
		const sent = await sendRequest(context, 'GET', '/api/user/me', { itemIndex: 0, slots });
		expect(sent).toEqual({ body: { data: { id: 1 } }, unknownOutcome: true });
		expect(seen).toEqual([0]);
		expect(slots.inFlight).toBe(1);
		scope.done();
	});

	it('keeps the slot through the backoff without the slots', async () => {
		const slots = new InFlightSlots(() => 1);
		await slots.take();
		const seen = slotsDuringSleeps(slots);
		nock(TEST_BASE_URL)
			.get('/api/user/me')
			.reply(502, 'Bad Gateway')
			.get('/api/user/me')
			.reply(200, { data: { id: 1 } });
		const { context } = createContext({ parameters: {} });
		await sendRequest(context, 'GET', '/api/user/me', { itemIndex: 0 });
		expect(seen).toEqual([1]);
	});
});
