import { VoiceChatAssistantApi } from '../../../credentials/VoiceChatAssistantApi.credentials';
import { normalizeBaseUrl } from '../../../nodes/VoiceChatAssistant/transport';

/** The credential test's base URL is an n8n expression; it must normalise exactly as the transport does. */
describe('Voice Chat Assistant API credential', () => {
	const expression = String(new VoiceChatAssistantApi().test.request.baseURL);

	function evaluate(baseUrl: unknown): string {
		const body = /^=\{\{(.*)\}\}$/s.exec(expression)?.[1];
		if (!body) throw new Error(`not an expression: ${expression}`);
		// eslint-disable-next-line @typescript-eslint/no-implied-eval
		return new Function('$credentials', `return ${body};`)({ baseUrl }) as string;
	}

	it.each([
		'https://app.famulor.de',
		'https://app.famulor.de/',
		'https://app.famulor.de/api',
		'https://app.famulor.de/api/',
		'https://voice.example.com/API',
		'  https://voice.example.com//  ',
		'http://127.0.0.1:4010/api',
		'',
		undefined,
	])('the credential test and the transport agree on %p', (value) => {
		expect(evaluate(value)).toBe(normalizeBaseUrl(value));
	});

	it('tests the key against GET /api/user/me', () => {
		expect(new VoiceChatAssistantApi().test.request.url).toBe('/api/user/me');
	});
});
