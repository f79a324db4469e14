/**
 * The packed package in a real n8n: a credential whose Base URL answers with a
 * redirect to another origin (another local port). n8n's HTTP client would
 * carry the Authorization header along; the node follows no redirect, so the
 * other origin never sees the key and the item fails naming where the
 * redirect pointed.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createN8nHome, outputOf } = require('../harness/n8n');

const KEY = 'redirect-key-MUST-STAY-HOME-24680';

interface Seen {
	method?: string;
	url?: string;
	authorization?: string;
}

function listen(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
	return new Promise((resolve) => {
		const server = http.createServer(handler);
		server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
	});
}

function profileWorkflow(id: string, credentialId: string) {
	return {
		id,
		name: `Profile ${credentialId}`,
		nodes: [
			{ id: 'a', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'b',
				name: 'Get Profile',
				type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistant',
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'account', operation: 'getProfile' },
				credentials: { voiceChatAssistantApi: { id: credentialId, name: credentialId } },
			},
		],
		connections: { Start: { main: [[{ node: 'Get Profile', type: 'main', index: 0 }]] } },
	};
}

describe('real n8n: a Base URL that redirects to another origin', () => {
	let home: any;
	let moved: { server: http.Server; port: number };
	let other: { server: http.Server; port: number };
	const atMoved: Seen[] = [];
	const atOther: Seen[] = [];

	beforeAll(async () => {
		other = await listen((req, res) => {
			atOther.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ name: 'Other host', email: 'other@example.test', total_balance: 1 }));
		});
		moved = await listen((req, res) => {
			atMoved.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
			res.writeHead(302, { Location: `http://127.0.0.1:${other.port}${req.url}` });
			res.end();
		});
		home = await createN8nHome();
		await home.importCredentials([
			{ id: 'movedCredential1', name: 'movedCredential1', type: 'voiceChatAssistantApi', data: { apiKey: KEY, baseUrl: `http://127.0.0.1:${moved.port}` } },
		]);
	});

	afterAll(async () => {
		await home?.cleanup();
		moved?.server.close();
		other?.server.close();
	});

	it('sends the key to the Base URL only: 0 requests at the other origin, the item fails naming it', async () => {
		const id = await home.importWorkflow(profileWorkflow('e2eRedirect0001', 'movedCredential1'));
		const result = await home.execute(id);
		expect(result.ok).toBe(false);
		expect(atMoved).toEqual([{ method: 'GET', url: '/api/user/me', authorization: `Bearer ${KEY}` }]);
		expect(atOther).toEqual([]);
		const { error } = outputOf(result.run, 'Get Profile');
		expect(error?.message).toBe(
			`The service answered with a redirect (HTTP 302) to 127.0.0.1:${other.port}: the request was not sent there, so the API key stays with 127.0.0.1:${moved.port}`,
		);
		expect(`${result.raw}\n${result.stderr}`).not.toContain(KEY);
	});
});

export {};
