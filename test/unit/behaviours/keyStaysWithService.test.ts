/**
 * The API key goes to the credential's origin and nowhere else: redirects are
 * not followed, plain HTTP is refused off this machine, the key is read for
 * each poll, key values are never passed on, and what the node sends cannot
 * smuggle names or lines into the service's objects.
 */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';
import type { IPollFunctions } from 'n8n-workflow';

import {
	baseUrlProblem,
	credentialSettings,
	forgetCredentialSettings,
} from '../../../nodes/VoiceChatAssistant/transport/credentials';
import { apiRequest } from '../../../nodes/VoiceChatAssistant/transport';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../helpers/context';
import { item, rl, run } from '../actions/helpers';
import { createParams } from '../actions/tool/fixtures';

function ctx(credentials = {}) {
	return createContext({ parameters: {}, credentials }).context;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise;
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected a failure');
}

describe('the API key stays with the service', () => {
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
	});
	afterEach(() => nock.cleanAll());

	describe('redirects', () => {
		it.each([301, 302, 303, 307, 308])(
			'a %i is not followed: the error names the host it points to and says to fix the Base URL',
			async (status) => {
				const api = nock(TEST_BASE_URL)
					.get('/api/user/me')
					.reply(status, '', { Location: 'https://elsewhere.example:8443/api/user/me?token=abc' });
				const other = nock('https://elsewhere.example:8443').get(/.*/).reply(200, { stolen: true });
				const error = (await failure(
					apiRequest.call(ctx(), 'GET', '/api/user/me'),
				)) as NodeApiError;
				expect(error).toBeInstanceOf(NodeApiError);
				expect(error.message).toBe(
					`The service answered with a redirect (HTTP ${status}) to elsewhere.example:8443: the request was not sent there, so the API key stays with api.test.local`,
				);
				expect(error.description).toBe(
					'If the service has moved, set the Base URL of the credential to https://elsewhere.example:8443; if you do not know elsewhere.example:8443, leave the Base URL as it is and ask the service.',
				);
				// the path and query of the target (which may carry tokens) are not repeated
				expect(`${error.message} ${error.description}`).not.toContain('token=abc');
				expect(api.isDone()).toBe(true);
				expect(other.isDone()).toBe(false);
			},
		);

		it('a redirect is not sent again (one request)', async () => {
			const api = nock(TEST_BASE_URL).get('/api/user/calls').reply(302, '', { Location: '/login' });
			const error = await failure(apiRequest.call(ctx(), 'GET', '/api/user/calls'));
			expect(error.message).toContain('redirect (HTTP 302) to api.test.local');
			expect(api.isDone()).toBe(true);
			expect(nock.pendingMocks()).toEqual([]);
		});

		it('a POST answered with a redirect is not sent anywhere else, and the item fails with the message', async () => {
			const api = nock(TEST_BASE_URL)
				.post('/api/user/tools')
				.reply(307, '', { Location: 'http://127.0.0.1:9/api/user/tools' });
			const error = await failure(run({ ...createParams }));
			expect(error.message).toContain('redirect (HTTP 307) to 127.0.0.1:9');
			expect(api.isDone()).toBe(true);
		});
	});

	describe('HTTPS only, except this machine', () => {
		it.each([
			['https://app.famulor.de', undefined],
			['https://white.label.example:8443/sub', undefined],
			['http://localhost:4010', undefined],
			['http://127.0.0.1:4010', undefined],
			['http://[::1]:4010', undefined],
		])('%s is accepted', (url, problem) => {
			expect(baseUrlProblem(url)).toBe(problem);
		});

		it.each([
			'http://app.famulor.de',
			'http://192.168.1.10:8080',
			'http://10.0.0.5',
			'ftp://app.famulor.de',
			// a name under .localhost goes to the system's resolver, which may ask DNS
			'http://sim.localhost:4010',
		])('%s is refused with why', (url) => {
			expect(baseUrlProblem(url)).toMatch(
				/^The Base URL of the credential must start with https:\/\/ \(got [a-z]+:\/\/[^)]+\): the API key would otherwise cross the network unencrypted\. Plain http:\/\/ is accepted only for localhost, 127\.x\.x\.x and \[::1\], written as http:\/\/localhost, http:\/\/127\.0\.0\.1 or http:\/\/\[::1\] with an optional port\.$/,
			);
		});

		it('a request with a plain-HTTP Base URL is refused before anything is sent', async () => {
			const plain = nock('http://app.famulor.de').get(/.*/).reply(200, {});
			const error = await failure(
				apiRequest.call(ctx({ baseUrl: 'http://app.famulor.de' }), 'GET', '/api/user/me'),
			);
			expect(error.message).toContain('must start with https://');
			expect(error.message).not.toContain(TEST_API_KEY);
			expect(plain.isDone()).toBe(false);
		});
	});

	describe('the key is read for each poll', () => {
		it('settings forgotten after a poll are read again: a rotated key is used from the next poll on', async () => {
			const { context } = createContext({ parameters: {} });
			const poll = context as unknown as IPollFunctions;
			const first = await credentialSettings(poll);
			expect(first.authorization).toBe(`Bearer ${TEST_API_KEY}`);
			const read = jest
				.spyOn(context, 'getCredentials')
				.mockResolvedValue({ apiKey: 'rotated-key-987654', baseUrl: 'https://moved.example' });
			// within one poll: the same settings
			expect(await credentialSettings(poll)).toBe(first);
			expect(read).not.toHaveBeenCalled();
			forgetCredentialSettings(poll);
			const next = await credentialSettings(poll);
			expect(read).toHaveBeenCalledTimes(1);
			expect(next.authorization).toBe('Bearer rotated-key-987654');
			expect(next.baseUrl).toBe('https://moved.example');
			// the key is not enumerable: it never shows when the settings are logged
			expect(JSON.stringify(next)).not.toContain('rotated-key');
		});
	});

	describe('Account → Get API Keys', () => {
		it('outputs the metadata fields only, whatever else the service answers', async () => {
			nock(TEST_BASE_URL)
				.get('/api/user/api-keys')
				.reply(200, {
					api_keys: [
						{
							id: 1,
							name: 'CI',
							last_used_at: null,
							created_at: '2026-01-01T00:00:00Z',
							token: 'sk-live-abcdef',
							plain_text_token: '1|abcdef',
							key: 'abcdef',
						},
					],
				});
			const output = await run({ resource: 'account', operation: 'getApiKeys' });
			expect(output).toEqual([
				item({ id: 1, name: 'CI', last_used_at: null, created_at: '2026-01-01T00:00:00Z' }),
			]);
		});
	});

	describe('reserved variable names are refused before sending, naming the field', () => {
		const lead = {
			resource: 'lead',
			operation: 'create',
			campaignId: rl('7'),
			phoneNumber: '+4915112345678',
		};

		it.each(['__proto__', 'constructor', 'prototype'])(
			'Lead → Create, Variables From → Input Fields, a column named %s',
			async (name) => {
				const sent = nock(TEST_BASE_URL).post(/.*/).reply(200, {});
				const json = JSON.parse(`{"phone":"+4915112345678","${name}":"x","city":"Berlin"}`);
				const error = await failure(
					run({ ...lead, variablesFrom: 'inputFields', fieldsToLeaveOut: 'phone, phone_number' }, [
						{ json },
					]),
				);
				expect(error.message).toBe(
					`Variables From → Input Fields cannot have a variable named "${name}": the names __proto__, constructor, prototype are reserved`,
				);
				expect(sent.isDone()).toBe(false);
			},
		);

		it('Lead → Create, Variables (JSON) with "__proto__"', async () => {
			const sent = nock(TEST_BASE_URL).post(/.*/).reply(200, {});
			const error = await failure(
				run({ ...lead, variables: {}, variablesJson: '{"__proto__": {"polluted": true}}' }),
			);
			expect(error.message).toContain('Variables (JSON) cannot have a variable named "__proto__"');
			expect(sent.isDone()).toBe(false);
			expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		});

		it('Lead → Create, a variable pair named "constructor"', async () => {
			const sent = nock(TEST_BASE_URL).post(/.*/).reply(200, {});
			const error = await failure(
				run({ ...lead, variables: { values: [{ key: 'constructor', value: 'x' }] } }),
			);
			expect(error.message).toContain('cannot have a variable named "constructor"');
			expect(sent.isDone()).toBe(false);
		});
	});

	describe('mid-call tool headers', () => {
		const withHeaders = (values: object[]) => ({
			...createParams,
			additionalFields: { headers: { values } },
		});

		it.each(['X Token', 'X-Token:', 'Bad\nName', 'Ünicode'])(
			'a header name %j that is not an HTTP token is refused, naming the header',
			async (name) => {
				const sent = nock(TEST_BASE_URL).post(/.*/).reply(201, {});
				const error = await failure(run(withHeaders([{ name, value: 'v' }])));
				expect(error.message).toContain('Headers → Header 1 → Name must be an HTTP header name');
				expect(sent.isDone()).toBe(false);
			},
		);

		it.each(['abc\r\nX-Injected: 1', 'abc\ndef', 'abc\u0000'])(
			'a header value with a line break or NUL (%j) is refused, naming the header',
			async (value) => {
				const sent = nock(TEST_BASE_URL).post(/.*/).reply(201, {});
				const error = await failure(run(withHeaders([{ name: 'X-Token', value }])));
				expect(error.message).toBe(
					'Headers → Header "X-Token" → Value must be one line: it contains a line break or a NUL character',
				);
				expect(sent.isDone()).toBe(false);
			},
		);

		it("a token name with all of RFC 9110's symbols and a value with spaces and tabs is sent", async () => {
			const name = "X-A!#$%&'*+.^_`|~9";
			const scope = nock(TEST_BASE_URL)
				.post(
					'/api/user/tools',
					(body) =>
						JSON.stringify(body.headers) === JSON.stringify([{ name, value: 'Bearer a\tb c' }]),
				)
				.reply(201, { message: 'Tool created', data: { id: 3 } });
			await run(withHeaders([{ name, value: 'Bearer a\tb c' }]));
			scope.done();
		});
	});
});
