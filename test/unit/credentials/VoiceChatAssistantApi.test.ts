import nock from 'nock';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { VoiceChatAssistantApi } from '../../../credentials/VoiceChatAssistantApi.credentials';
import { normalizeBaseUrl } from '../../../nodes/VoiceChatAssistant/transport';
import { keyMayGoTo } from '../../../nodes/VoiceChatAssistant/transport/baseUrlRule';
import { baseUrlProblem } from '../../../nodes/VoiceChatAssistant/transport/credentials';
import { resolveCredentialExpression } from '../../helpers/credentialExpression';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { httpRequest } = require('@n8n/backend-network/testing');

/**
 * The credential's expressions as n8n evaluates them (n8n-workflow's
 * expression engine, `$credentials`): the test request's base URL, and its
 * Authorization header, which carries the key only towards https:// or plain
 * http:// to this machine, written as such; the nodes' transport agrees.
 */
const credential = new VoiceChatAssistantApi();
const API_KEY = 'k-123-SECRET';

function testBaseUrl(baseUrl: string | undefined): string {
	return resolveCredentialExpression(String(credential.test.request.baseURL), { baseUrl });
}

function authorization(baseUrl: string | undefined): string {
	const header = String(credential.authenticate.properties.headers?.Authorization);
	return resolveCredentialExpression(header, { baseUrl, apiKey: API_KEY });
}

/** The host the credential test's request goes to (n8n's client parses the joined URL as WHATWG URL does). */
function hostOfTest(
	baseUrl: string | undefined,
): { protocol: string; hostname: string } | undefined {
	try {
		const url = new URL(`${testBaseUrl(baseUrl)}/api/user/me`);
		return { protocol: url.protocol, hostname: url.hostname };
	} catch {
		return undefined;
	}
}

export const ACCEPTED = [
	'https://app.famulor.de',
	'HTTPS://voice.example.com/api',
	'  https://voice.example.com  ',
	'https://white.label.example:8443/sub',
	'',
	undefined,
	'http://localhost:4010',
	'http://LOCALHOST:4010/api/',
	'http://localhost',
	'http://127.0.0.1',
	'http://127.0.0.1:4010/api',
	'http://127.255.255.254:80',
	'http://[::1]:8080',
	'http://[::1]',
];

export const REFUSED = [
	'http://evil.com\\.localhost',
	'http://evil.com\\.localhost:4010',
	'http://localhost@evil.com',
	'http://localhost:4010@evil.com',
	'http://127.0.0.1@evil.com',
	'http://evil.com#@localhost',
	'http://evil.com?@localhost',
	'http://evil.com/@localhost',
	'http://127.0.0.1.evil.com',
	'http://127.0.0.1:4010.evil.com',
	'http:// evil.com',
	'http://localhost.evil.com',
	'http://localhost\t.evil.com',
	'http://local\nhost.evil.com',
	'http://localhost\\@evil.com',
	'http://%6cocalhost.evil.com',
	'http://localhost%2eevil.com',
	'http://[::1].evil.com',
	'http://evil.localhost',
	'http://sim.localhost:4010',
	'HTTP://evil.com',
	'http:\\\\evil.com',
	'http:/evil.com',
	'http:///evil.com',
	'http://app.famulor.de',
	'http://192.168.1.10:8080',
	'http://10.0.0.5',
	'http://127.1',
	'http://2130706433',
	'http://0x7f.0.0.1',
	'http://[::ffff:127.0.0.1]',
	'ftp://app.famulor.de',
	'ws://localhost:4010',
	'localhost:4010',
];

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

describe('Voice Chat Assistant API credential', () => {
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
	])("the credential test's base URL and the transport's agree on %p", (value) => {
		expect(testBaseUrl(value)).toBe(normalizeBaseUrl(value));
	});

	it('tests the key against GET /api/user/me', () => {
		expect(credential.test.request.url).toBe('/api/user/me');
	});

	describe('the key goes over https:// only, or to this machine', () => {
		it.each(ACCEPTED)(
			'%p: the header carries the key, and the nodes accept the Base URL',
			(url) => {
				expect(authorization(url)).toBe(`Bearer ${API_KEY}`);
				expect(keyMayGoTo(url)).toBe(true);
				expect(baseUrlProblem(url)).toBeUndefined();
				// and the request goes where the rule read: https, or plain http to this machine
				const target = hostOfTest(url);
				expect(
					target?.protocol === 'https:' ||
						(target?.protocol === 'http:' && LOOPBACK.test(target.hostname)),
				).toBe(true);
			},
		);

		it.each(REFUSED)(
			'%p: the header is empty, and the nodes refuse the Base URL saying why',
			(url) => {
				expect(authorization(url)).toBe('');
				expect(keyMayGoTo(url)).toBe(false);
				const problem = baseUrlProblem(url);
				expect(problem).toMatch(/must start with https:\/\/|is not a URL/);
				expect(problem).not.toContain(API_KEY);
			},
		);

		it('the credential test sends no key to a refused Base URL: no request that leaves carries it', async () => {
			const seen: Array<{ host: string; authorization: unknown }> = [];
			nock(/.*/)
				.persist()
				.get(/.*/)
				.reply(function () {
					const { host, authorization } = this.req.headers;
					seen.push({ host: String(host).replace(/:\d+$/, ''), authorization });
					return [401, { message: 'Unauthenticated.' }];
				});
			let failedBeforeSending = 0;
			for (const url of REFUSED) {
				const request: IHttpRequestOptions = {
					...(credential.test.request as IHttpRequestOptions),
					method: 'GET',
					baseURL: testBaseUrl(url),
					headers: {
						...(credential.test.request.headers as IDataObject),
						Authorization: authorization(url),
					},
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				};
				await httpRequest(request).catch(() => failedBeforeSending++);
			}
			expect(seen.length + failedBeforeSending).toBe(REFUSED.length);
			// the hosts the bypasses aimed at were reached, without the key
			expect(seen.map((s) => s.host)).toEqual(expect.arrayContaining(['evil.com']));
			// (a Base URL with user info gets the client's Basic header of that user info, never the key)
			for (const request of seen) {
				expect(String(request.authorization ?? '')).not.toContain(API_KEY);
				expect(String(request.authorization ?? '')).not.toMatch(/bearer/i);
			}
		});

		it('the test follows no redirect and says why a redirect or a 401 failed', () => {
			const { request, rules } = credential.test;
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
