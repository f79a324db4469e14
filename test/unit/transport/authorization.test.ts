import nock from 'nock';

import { VoiceChatAssistantApi } from '../../../credentials/VoiceChatAssistantApi.credentials';
import { credentialSettings } from '../../../nodes/VoiceChatAssistant/transport/credentials';
import { apiRequest } from '../../../nodes/VoiceChatAssistant/transport/request';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';

describe('the Authorization header, built once per node run', () => {
	fakeClockPerTest();

	it("is the credential's authenticate (Bearer and the API key), sent through the plain HTTP helper", async () => {
		// the credential's header is "Bearer " and the key towards an https:// (or localhost) Base URL;
		// test/unit/credentials evaluates it for every kind of Base URL
		const header = String(
			new VoiceChatAssistantApi().authenticate.properties.headers?.Authorization,
		);
		expect(header).toMatch(/^=\{\{ .+ \? "Bearer " \+ \$credentials\.apiKey : "" \}\}$/);
		const scope = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get('/api/user/me')
			.times(3)
			.reply(200, { data: { id: 1 } });
		const { context } = createContext({ parameters: {} });
		const authenticated = jest.spyOn(context.helpers, 'httpRequestWithAuthentication');
		const getCredentials = jest.spyOn(context, 'getCredentials');
		for (let i = 0; i < 3; i++) await apiRequest.call(context, 'GET', '/api/user/me');
		scope.done();
		expect(authenticated).not.toHaveBeenCalled();
		// the credential is read once for the run, not once per request
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it('is not among the enumerable settings (never logged with them)', async () => {
		const { context } = createContext({ parameters: {} });
		const settings = await credentialSettings(context);
		expect(settings.authorization).toBe(`Bearer ${TEST_API_KEY}`);
		expect(JSON.stringify(settings)).not.toContain(TEST_API_KEY);
		expect(Object.keys(settings)).not.toContain('authorization');
	});
});
