/**
 * The packed package in a real n8n: the API key goes to the credential's
 * origin only. A Base URL that answers with a redirect to another origin
 * (another local port): n8n's HTTP client would carry the Authorization header
 * along; the node and the credential test follow no redirect, so the other
 * origin never sees the key, and the item fails naming where the redirect
 * pointed. A plain-http Base URL off this machine gets no key from the
 * credential test.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

const { createN8nHome, outputOf, currentLine, profileWorkflow } = require('../harness/n8n');

const KEY = 'redirect-key-MUST-STAY-HOME-24680';

interface Seen {
	method?: string;
	url?: string;
	authorization?: string;
}

function listen(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
	return new Promise((resolve) => {
		const server = http.createServer(handler);
		server.listen(0, '127.0.0.1', () =>
			resolve({ server, port: (server.address() as AddressInfo).port }),
		);
	});
}

describe('real n8n: the API key stays with the service', () => {
	let home: any;
	let moved: { server: http.Server; port: number };
	let other: { server: http.Server; port: number };
	const atMoved: Seen[] = [];
	const atOther: Seen[] = [];
	let service: { server: http.Server; port: number };
	const atService: Seen[] = [];
	let server: any;
	let rest: any;
	// the editor's "Retry" of a saved credential: its id and its data
	const credentialTest = (id: string, baseUrl: string) =>
		rest.post('/credentials/test', {
			credentials: { id, name: id, type: 'voiceChatAssistantApi', data: { apiKey: KEY, baseUrl } },
		});

	beforeAll(async () => {
		other = await listen((req, res) => {
			atOther.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify({ name: 'Other host', email: 'other@example.test', total_balance: 1 }),
			);
		});
		moved = await listen((req, res) => {
			atMoved.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
			res.writeHead(302, { Location: `http://127.0.0.1:${other.port}${req.url}` });
			res.end();
		});
		// a service that knows the key; it listens on every address, so 0.0.0.0 (not loopback by name) reaches it
		service = await new Promise((resolve) => {
			const srv = http.createServer((req, res) => {
				atService.push({
					method: req.method,
					url: req.url,
					authorization: req.headers.authorization,
				});
				const ok = req.headers.authorization === `Bearer ${KEY}`;
				res.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json' });
				res.end(
					JSON.stringify(
						ok
							? { name: 'A', email: 'a@example.test', total_balance: 1 }
							: { message: 'Unauthenticated.' },
					),
				);
			});
			srv.listen(0, '0.0.0.0', () =>
				resolve({ server: srv, port: (srv.address() as AddressInfo).port }),
			);
		});
		home = await createN8nHome();
		await home.importCredentials([
			{
				id: 'movedCredential1',
				name: 'movedCredential1',
				type: 'voiceChatAssistantApi',
				data: { apiKey: KEY, baseUrl: `http://127.0.0.1:${moved.port}` },
			},
			{
				id: 'localCredential1',
				name: 'localCredential1',
				type: 'voiceChatAssistantApi',
				data: { apiKey: KEY, baseUrl: `http://127.0.0.1:${service.port}` },
			},
			{
				id: 'plainCredential1',
				name: 'plainCredential1',
				type: 'voiceChatAssistantApi',
				data: { apiKey: KEY, baseUrl: `http://0.0.0.0:${service.port}` },
			},
		]);
		// one n8n for the file: the workflow is saved and run in it as from the editor
		server = await home.start();
	}, 180_000);

	afterAll(async () => {
		await server?.stop();
		await home?.cleanup();
		service?.server.close();
		moved?.server.close();
		other?.server.close();
	});

	it('sends the key to the Base URL only: 0 requests at the other origin, the item fails naming it', async () => {
		const id = await home.createWorkflow(
			server,
			profileWorkflow('e2eRedirect0001', 'movedCredential1'),
		);
		const result = await home.run(server, id);
		expect(result.ok).toBe(false);
		expect(atMoved).toEqual([
			{ method: 'GET', url: '/api/user/me', authorization: `Bearer ${KEY}` },
		]);
		expect(atOther).toEqual([]);
		const { error } = outputOf(result.run, 'Get Profile');
		expect(error?.message).toBe(
			`The service answered with a redirect (HTTP 302) to 127.0.0.1:${other.port}: the request was not sent there, so the API key stays with 127.0.0.1:${moved.port}`,
		);
		expect(`${result.raw}\n${result.stderr}`).not.toContain(KEY);
	});

	describe('the credential test', () => {
		beforeAll(async () => {
			rest = await home.rest(server);
		});

		it('passes against a service on this machine, with the key', async () => {
			atService.length = 0;
			const result = await credentialTest('localCredential1', `http://127.0.0.1:${service.port}`);
			expect(result.status).toBe('OK');
			expect(atService).toEqual([
				{ method: 'GET', url: '/api/user/me', authorization: `Bearer ${KEY}` },
			]);
		});

		it('follows no redirect: the other origin receives nothing, the message says why', async () => {
			atMoved.length = 0;
			atOther.length = 0;
			const result = await credentialTest('movedCredential1', `http://127.0.0.1:${moved.port}`);
			expect(result.status).toBe('Error');
			// n8n 1.x shows its own text for a failed credential test ("Request failed with status code 302")
			expect(result.message).toBe(
				currentLine() === 'v1'
					? 'Request failed with status code 302'
					: 'The Base URL answered with a redirect, which is not followed: the API key would go along to another host. Enter the address the service uses now.',
			);
			expect(atMoved).toHaveLength(1);
			expect(atOther).toEqual([]);
		});

		it('sends no key to a plain-http Base URL that is not localhost, and says why it failed', async () => {
			atService.length = 0;
			const result = await credentialTest('plainCredential1', `http://0.0.0.0:${service.port}`);
			expect(result.status).toBe('Error');
			expect(result.message).toContain(
				currentLine() === 'v1' ? 'Authorization failed' : 'The key is sent over https:// only',
			);
			expect(atService.length).toBeGreaterThan(0);
			for (const seen of atService) expect(seen.authorization ?? '').toBe('');
			expect(JSON.stringify(result)).not.toContain(KEY);
		});
	});
});

export {};
