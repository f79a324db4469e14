import { VoiceChatAssistantApi } from '../../../credentials/VoiceChatAssistantApi.credentials';
import { normalizeBaseUrl } from '../../../nodes/VoiceChatAssistant/transport';
import { baseUrlProblem } from '../../../nodes/VoiceChatAssistant/transport/credentials';

/** The credential test's base URL is an n8n expression; it must normalise exactly as the transport does. */
describe('Voice Chat Assistant API credential', () => {
	const expression = String(new VoiceChatAssistantApi().test.request.baseURL);

	function evaluate(baseUrl: unknown): string {
		const body = /^=\{\{(.*)\}\}$/s.exec(expression)?.[1];
		if (!body) throw new Error(`not an expression: ${expression}`);
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

	describe('the key goes over https:// only, or to localhost', () => {
		const header = String(
			new VoiceChatAssistantApi().authenticate.properties.headers?.Authorization,
		);

		function authorization(baseUrl: unknown): string {
			const body = /^=\{\{(.*)\}\}$/s.exec(header)?.[1];
			if (!body) throw new Error(`not an expression: ${header}`);
			return new Function('$credentials', `return ${body};`)({
				baseUrl,
				apiKey: 'k-123',
			}) as string;
		}

		it.each([
			'https://app.famulor.de',
			'HTTPS://voice.example.com/api',
			'  https://voice.example.com  ',
			'',
			undefined,
			'http://localhost:4010',
			'http://127.0.0.1:4010/api',
			'http://sim.localhost',
			'http://[::1]:4010',
		])('%p: the header carries the key, and the nodes accept the Base URL', (baseUrl) => {
			expect(authorization(baseUrl)).toBe('Bearer k-123');
			expect(baseUrlProblem(normalizeBaseUrl(baseUrl))).toBeUndefined();
		});

		it.each([
			'http://app.famulor.de',
			'http://192.168.1.10:8080',
			'http://localhost.example.com',
			'http://127.0.0.1.evil.example',
			'ftp://app.famulor.de',
		])('%p: the header is empty, and the nodes refuse the Base URL saying why', (baseUrl) => {
			expect(authorization(baseUrl)).toBe('');
			expect(baseUrlProblem(normalizeBaseUrl(baseUrl))).toContain('must start with https://');
		});

		it('the test follows no redirect and says why a redirect or a 401 failed', () => {
			const { request, rules } = new VoiceChatAssistantApi().test;
			expect(request.disableFollowRedirect).toBe(true);
			const messages = new Map(
				(rules ?? []).map((rule) => [rule.properties.value, rule.properties.message]),
			);
			for (const status of [301, 302, 303, 307, 308])
				expect(messages.get(status)).toContain('redirect, which is not followed');
			expect(messages.get(401)).toContain('https://');
		});
	});
});
