/**
 * Every test file gets its own copy of nock (jest isolates modules), while
 * Node's http module is shared by the process. Unpatch at the end of each
 * file so the next file's nock intercepts cleanly, and never let a test
 * reach the network.
 */
import nock from 'nock';

beforeAll(() => {
	if (!nock.isActive()) nock.activate();
	nock.disableNetConnect();
	nock.enableNetConnect(/(127\.0\.0\.1|localhost)/);
});

afterAll(() => {
	nock.cleanAll();
	nock.restore();
});
