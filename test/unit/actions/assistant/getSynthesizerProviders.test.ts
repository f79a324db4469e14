import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { itOutputsOneItemPerElement, itReadsTheList } from './listCases';

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	itReadsTheList([
		['getSynthesizerProviders', '/api/user/assistants/synthesizer-providers', {}, {}],
	]);
});

describe('Assistant (lists, delete, webhooks)', () => {
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
	});
	afterEach(() => nock.cleanAll());

	itOutputsOneItemPerElement([
		['getSynthesizerProviders', '/api/user/assistants/synthesizer-providers', {}, {}],
	]);
});
