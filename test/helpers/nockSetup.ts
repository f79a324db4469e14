/**
 * The setup of every unit test file. Every file gets its own copy of nock
 * (jest isolates modules), while Node's http module is shared by the process:
 * unpatch at the end of each file so the next file's nock intercepts cleanly.
 * Before each test: no network but local servers, the rate limiters and the
 * webhook trigger's memory of its own registrations forgotten (each test is a
 * process of its own); after it, nock's interceptors removed.
 */
import nock from 'nock';
import { forgetProcess } from '../../nodes/VoiceChatAssistantTrigger/core/memory';

import { resetLimiters } from '../../nodes/VoiceChatAssistant/transport/rateLimiter';

const LOCAL = /(127\.0\.0\.1|localhost)/;

function localOnly() {
	nock.disableNetConnect();
	nock.enableNetConnect(LOCAL);
}

beforeAll(() => {
	if (!nock.isActive()) nock.activate();
	localOnly();
});

beforeEach(() => {
	localOnly();
	resetLimiters();
	forgetProcess();
});

afterEach(() => nock.cleanAll());

afterAll(() => {
	nock.cleanAll();
	nock.restore();
});
