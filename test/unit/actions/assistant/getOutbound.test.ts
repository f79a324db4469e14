import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { itOutputsOneItemPerElement, itReadsTheList } from './listCases';

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	itReadsTheList([
		['getOutbound', '/api/user/assistants/outbound', {}, {}],
	]);
});

describe('Assistant (lists, delete, webhooks)', () => {
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
	});
	afterEach(() => nock.cleanAll());

	itOutputsOneItemPerElement([
		['getOutbound', '/api/user/assistants/outbound', {}, {}],
	]);
});
