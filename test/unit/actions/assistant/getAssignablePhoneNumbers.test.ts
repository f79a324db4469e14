import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { itOutputsOneItemPerElement, itReadsTheList } from './listCases';

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	itReadsTheList([
		['getAssignablePhoneNumbers', '/api/user/assistants/phone-numbers', { assistantType: 'outbound' }, { type: 'outbound' }],
	]);
});

describe('Assistant (lists, delete, webhooks)', () => {
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
	});
	afterEach(() => nock.cleanAll());

	itOutputsOneItemPerElement([
		['getAssignablePhoneNumbers', '/api/user/assistants/phone-numbers', { assistantType: 'outbound' }, { type: 'outbound' }],
	]);
});
