/**
 * Call 9001 as the webhook tests post it (assistant 34's, customer
 * +4915112345678, 2025-05-02), and the service's lists as they answer them:
 * one page of a list envelope, and the call list such a post is checked
 * against: filtered by the customer's number, a day either side of the call's
 * time.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { TEST_API_KEY, TEST_BASE_URL } from '../../../helpers/context';

/** What each post of call 9001 says about it (each test file adds its transcript and recording URL). */
export const POSTED_CALL = {
	id: 9001,
	customer_phone: '+4915112345678',
	assistant_phone: '+4930123456',
	duration: 73,
	status: 'completed',
	created_at: '2025-05-02T10:00:00Z',
	finished_at: '2025-05-02T10:01:13Z',
	lead: null,
	campaign: null,
};

/** A list envelope holding `data` on its only page. */
export function onePage(data: IDataObject[]): IDataObject {
	return { current_page: 1, last_page: 1, next_page_url: null, data };
}

/** The call list of `assistantId` as a post is checked against it: it lists `calls`, `times` times. */
export function postedCallList(assistantId: number, calls: IDataObject[], times = 1) {
	return nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
		.get('/api/user/calls')
		.query({
			assistant_id: String(assistantId),
			per_page: '100',
			phone_number: POSTED_CALL.customer_phone,
			date_from: '2025-05-01',
			date_to: '2025-05-03',
			page: '1',
		})
		.times(times)
		.reply(200, onePage(calls));
}
