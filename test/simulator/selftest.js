'use strict';
/**
 * Self-test of the simulator. Run with `node --test test/simulator/` (through
 * simulator.test.js) or directly with `node test/simulator/selftest.js`.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const crypto = require('node:crypto');
const { startSimulator, DEFAULT_API_KEY } = require('./server');

const AUTH = { Authorization: `Bearer ${DEFAULT_API_KEY}` };

async function call(sim, method, path, { body, headers = {}, auth = true, raw } = {}) {
	const init = {
		method,
		headers: { Accept: 'application/json', ...(auth ? AUTH : {}), ...headers },
	};
	if (raw !== undefined) init.body = raw;
	else if (body !== undefined) {
		init.body = JSON.stringify(body);
		init.headers['Content-Type'] = 'application/json';
	}
	const res = await fetch(sim.url + path, init);
	const text = await res.text();
	let json = null;
	try {
		json = text ? JSON.parse(text) : null;
	} catch {
		json = text;
	}
	return { status: res.status, headers: res.headers, body: json };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(fn, timeoutMs = 3000) {
	const start = Date.now();
	for (;;) {
		const value = await fn();
		if (value) return value;
		if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
		await sleep(25);
	}
}

/** A local webhook receiver answering JSON, recording what it got. */
async function startReceiver(answer = { received: true, crm_id: 'abc' }) {
	const got = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			got.push({
				path: req.url,
				headers: req.headers,
				body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
			});
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(answer));
		});
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		got,
		close: () =>
			new Promise((r) => {
				server.close(r);
				server.closeAllConnections();
			}),
	};
}

const VALID_PIPELINE = {
	name: 'Support line',
	voice_id: 1,
	language_id: 1,
	type: 'outbound',
	mode: 'pipeline',
	timezone: 'Europe/Berlin',
	initial_message: 'Hello {{customer_name}}!',
	system_prompt: 'Be helpful.',
	llm_model_id: 2,
};

test('simulator', async (t) => {
	const sim = await startSimulator({ port: 0, rateLimit: false, docProcessingMs: 150 });
	t.after(() => sim.close());
	t.beforeEach(async () => {
		await call(sim, 'POST', '/__sim/reset', { auth: false });
		await call(sim, 'POST', '/__sim/config', {
			auth: false,
			body: { rateLimit: false, docProcessingMs: 150, toolLimit: 10 },
		});
	});

	await t.test(
		'authentication: /api/user/* needs the Bearer key, conversations do not',
		async () => {
			assert.deepEqual((await call(sim, 'GET', '/api/user/me', { auth: false })).body, {
				message: 'Unauthenticated.',
			});
			const wrong = await call(sim, 'GET', '/api/user/me', {
				auth: false,
				headers: { Authorization: 'Bearer nope' },
			});
			assert.equal(wrong.status, 401);
			const me = await call(sim, 'GET', '/api/user/me');
			assert.equal(me.status, 200);
			assert.deepEqual(me.body, {
				name: 'Sim Tester',
				email: 'sim.tester@example.com',
				total_balance: 25.5,
			});
			const keys = await call(sim, 'GET', '/api/user/api-keys');
			assert.equal(keys.body.api_keys.length, 2);
			assert.ok(!('token' in keys.body.api_keys[0]));
			const conv = await call(sim, 'GET', `/api/conversations/${sim.state.conversations[0].id}`, {
				auth: false,
			});
			assert.equal(conv.status, 200);
			assert.equal(conv.body.status, true);
		},
	);

	await t.test('unknown route 404, wrong method 405, malformed JSON 400', async () => {
		assert.deepEqual((await call(sim, 'GET', '/api/user/nothing')).body, { message: 'Not Found' });
		assert.equal((await call(sim, 'DELETE', '/api/user/me')).status, 405);
		const bad = await call(sim, 'POST', '/api/user/tools', {
			raw: '{"name":',
			headers: { 'Content-Type': 'application/json' },
		});
		assert.equal(bad.status, 400);
		assert.deepEqual(bad.body, { message: 'Malformed JSON' });
	});

	await t.test(
		'rate limit: burst window answers 429 with retry_after and Retry-After',
		async () => {
			sim.setConfig({
				rateLimit: { perMinute: 100, burst: 5, burstWindowMs: 2000, windowMs: 60000 },
			});
			const statuses = [];
			let limited;
			for (let i = 0; i < 7; i++) {
				const r = await call(sim, 'GET', '/api/user/me');
				statuses.push(r.status);
				if (r.status === 429) limited = r;
			}
			assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
			assert.equal(limited.body.message, 'Too Many Attempts.');
			assert.ok(
				Number.isInteger(limited.body.retry_after) &&
					limited.body.retry_after >= 1 &&
					limited.body.retry_after <= 2,
			);
			assert.equal(limited.headers.get('retry-after'), String(limited.body.retry_after));
			// the control API is not limited
			assert.equal((await call(sim, 'GET', '/__sim/health', { auth: false })).status, 200);
			// the minute window
			sim.setConfig({
				rateLimit: { perMinute: 3, burst: 20, burstWindowMs: 10000, windowMs: 60000 },
			});
			for (let i = 0; i < 3; i++)
				assert.equal((await call(sim, 'GET', '/api/user/me')).status, 200);
			const minute = await call(sim, 'GET', '/api/user/me');
			assert.equal(minute.status, 429);
			assert.ok(minute.body.retry_after > 50 && minute.body.retry_after <= 60);
			// after the burst window passes, requests go through again
			sim.setConfig({
				rateLimit: { perMinute: 100, burst: 2, burstWindowMs: 1000, windowMs: 60000 },
			});
			await call(sim, 'GET', '/api/user/me');
			await call(sim, 'GET', '/api/user/me');
			assert.equal((await call(sim, 'GET', '/api/user/me')).status, 429);
			await sleep(1050);
			assert.equal((await call(sim, 'GET', '/api/user/me')).status, 200);
		},
	);

	await t.test(
		'pagination of calls: envelope, filters kept in next_page_url, last page',
		async () => {
			const seeded = await call(sim, 'POST', '/__sim/calls/seed', {
				auth: false,
				body: { count: 45, assistant_id: 2, type: 'outbound', status: 'completed' },
			});
			assert.equal(seeded.body.created, 45);
			const first = await call(
				sim,
				'GET',
				'/api/user/calls?type=outbound&status=completed&assistant_id=2&per_page=20',
			);
			assert.equal(first.status, 200);
			const p = first.body;
			assert.deepEqual(Object.keys(p), [
				'current_page',
				'data',
				'first_page_url',
				'from',
				'last_page',
				'last_page_url',
				'links',
				'next_page_url',
				'path',
				'per_page',
				'prev_page_url',
				'to',
				'total',
			]);
			assert.equal(p.total, 46); // 45 seeded + 1 seed call of assistant 2 that is completed/outbound
			assert.equal(p.last_page, 3);
			assert.equal(p.from, 1);
			assert.equal(p.to, 20);
			assert.equal(p.path, `${sim.url}/api/user/calls`);
			assert.equal(
				p.next_page_url,
				`${sim.url}/api/user/calls?type=outbound&status=completed&assistant_id=2&per_page=20&page=2`,
			);
			assert.equal(p.prev_page_url, null);
			assert.equal(p.links[0].label, '&laquo; Previous');
			assert.equal(p.links.at(-1).url, p.next_page_url);
			const last = await call(
				sim,
				'GET',
				new URL(p.last_page_url).pathname + new URL(p.last_page_url).search,
			);
			assert.equal(last.body.next_page_url, null);
			assert.equal(last.body.data.length, 6);
			assert.equal(last.body.to, 46);
			const created = first.body.data.map((c) => c.created_at);
			assert.deepEqual([...created].sort().reverse(), created, 'newest first');
			assert.match(created[0], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

			const bad = await call(
				sim,
				'GET',
				'/api/user/calls?per_page=101&date_from=2024-13-01&status=nope',
			);
			assert.equal(bad.status, 422);
			assert.equal(bad.body.message, 'The given data was invalid.');
			assert.deepEqual(Object.keys(bad.body.errors).sort(), ['date_from', 'per_page', 'status']);
			const conv = await call(sim, 'GET', '/api/user/conversations?per_page=1&type=widget');
			assert.equal(conv.body.total, 1);
			assert.equal(conv.body.data[0].assistant_id, sim.state.assistants[0].uuid);
		},
	);

	await t.test('seeding 10,000 calls is quick and they are listed', async () => {
		const start = Date.now();
		const r = await call(sim, 'POST', '/__sim/calls/seed', { auth: false, body: { count: 10000 } });
		assert.equal(r.body.created, 10000);
		assert.ok(Date.now() - start < 5000);
		const page = await call(sim, 'GET', '/api/user/calls?per_page=100&page=50');
		assert.equal(page.body.total, 10007);
		assert.equal(page.body.data.length, 100);
		assert.equal(page.body.last_page, 101);
		assert.ok(page.body.links.some((l) => l.label === '...'));
	});

	await t.test('leads: E.164, campaign, duplicates, secondary contacts', async () => {
		const dup = await call(sim, 'POST', '/api/user/lead', {
			body: { phone_number: '+14155559876', campaign_id: 1 },
		});
		assert.equal(dup.status, 422);
		assert.deepEqual(dup.body, {
			message: 'The given data was invalid.',
			errors: { phone_number: ['A lead with this phone number already exists in this campaign.'] },
		});
		const allowed = await call(sim, 'POST', '/api/user/lead', {
			body: { phone_number: '+14155559876', campaign_id: 1, allow_dupplicate: true },
		});
		assert.equal(allowed.status, 200);
		const bad = await call(sim, 'POST', '/api/user/lead', {
			body: {
				phone_number: '0171 123',
				campaign_id: 99,
				secondary_contacts: [{ phone_number: 'x' }],
			},
		});
		assert.deepEqual(Object.keys(bad.body.errors).sort(), [
			'campaign_id',
			'phone_number',
			'secondary_contacts.0.phone_number',
		]);
		const ok = await call(sim, 'POST', '/api/user/lead', {
			body: {
				phone_number: '+4915123456789',
				campaign_id: 1,
				variables: { customer_name: 'Max', email: 'max@example.com' },
				secondary_contacts: [
					{ phone_number: '+4915123456780', variables: { customer_name: 'Erika' } },
				],
			},
		});
		assert.equal(ok.status, 200);
		assert.equal(ok.body.message, 'Lead created successfully');
		const lead = ok.body.data;
		assert.equal(lead.status, 'created');
		assert.deepEqual(lead.campaign, { id: 1, name: 'Spring Outreach' });
		assert.match(lead.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		assert.equal(typeof lead.secondary_contacts[0].id, 'number');
		assert.equal(lead.secondary_contacts[0].status, 'created');
	});

	await t.test(
		'documents: multipart upload is logged with its hash; processing becomes active or failed',
		async () => {
			const content = Buffer.from('%PDF-1.4\nhello simulator\n%%EOF\n');
			const form = new FormData();
			form.append('name', 'Price list');
			form.append('type', 'pdf');
			form.append('description', 'Prices 2025');
			form.append('file', new Blob([content], { type: 'application/pdf' }), 'prices.pdf');
			sim.clearLog();
			const created = await call(sim, 'POST', '/api/user/knowledgebases/1/documents', {
				raw: form,
			});
			assert.equal(created.status, 201);
			assert.equal(created.body.data.status, 'processing');
			assert.equal(created.body.data.type_label, 'PDF');
			const entry = sim.log.find((e) => e.path === '/api/user/knowledgebases/1/documents');
			assert.equal(entry.headers.authorization, 'Bearer ***');
			assert.deepEqual(entry.body.parts, ['name', 'type', 'description', 'file']);
			assert.deepEqual(entry.body.files, [
				{
					field: 'file',
					filename: 'prices.pdf',
					contentType: 'application/pdf',
					size: content.length,
					sha256: crypto.createHash('sha256').update(content).digest('hex'),
				},
			]);
			const log = await call(sim, 'GET', `/__sim/log?since=${entry.index}`, { auth: false });
			assert.equal(log.body[0].body.files[0].sha256, entry.body.files[0].sha256);

			const kbWhile = await call(sim, 'GET', '/api/user/knowledgebases/1');
			assert.equal(kbWhile.body.data.status, 'processing');
			assert.equal(kbWhile.body.data.documents_count, 2);
			const docId = created.body.data.id;
			const done = await waitFor(async () => {
				const d = await call(sim, 'GET', `/api/user/knowledgebases/1/documents/${docId}`);
				return d.body.data.status === 'active' && d.body.data;
			});
			assert.equal(done.status_label, 'Active');
			assert.equal(
				(await call(sim, 'GET', '/api/user/knowledgebases/1')).body.data.status,
				'active',
			);

			const failing = await call(sim, 'POST', '/api/user/knowledgebases/1/documents', {
				body: {
					name: 'will fail',
					type: 'website',
					links: [{ link: 'https://example.com/a' }],
					relative_links_limit: 5,
				},
			});
			assert.equal(failing.status, 201);
			await waitFor(
				async () =>
					(await call(sim, 'GET', '/api/user/knowledgebases/1')).body.data.status === 'failed',
			);

			const missing = await call(sim, 'POST', '/api/user/knowledgebases/1/documents', {
				body: { name: 'x', type: 'txt' },
			});
			assert.deepEqual(missing.body, {
				message: 'The given data was invalid.',
				errors: { file: ['The file field is required.'] },
			});
			const website = await call(sim, 'POST', '/api/user/knowledgebases/1/documents', {
				body: { name: 'x', type: 'website', relative_links_limit: 51 },
			});
			assert.deepEqual(Object.keys(website.body.errors).sort(), [
				'links',
				'relative_links_limit',
				'url',
			]);
			const noKb = await call(sim, 'POST', '/api/user/knowledgebases/77/documents', {
				body: { name: 'x', type: 'website', url: 'https://a.example' },
			});
			assert.deepEqual([noKb.status, noKb.body], [404, { error: 'Knowledgebase not found.' }]);
			const boom = await call(sim, 'POST', '/api/user/knowledgebases/1/documents', {
				body: { name: '__fail_create__', type: 'website', url: 'https://a.example' },
			});
			assert.deepEqual(
				[boom.status, boom.body],
				[500, { error: 'Failed to create document. Please try again.' }],
			);
			const noDoc = await call(sim, 'PUT', '/api/user/knowledgebases/1/documents/999', {
				body: { name: 'y' },
			});
			assert.deepEqual([noDoc.status, noDoc.body], [404, { error: 'Document not found.' }]);

			// deleting every document empties the knowledgebase
			const docs = (await call(sim, 'GET', '/api/user/knowledgebases/1/documents')).body.data;
			for (const d of docs)
				assert.equal(
					(await call(sim, 'DELETE', `/api/user/knowledgebases/1/documents/${d.id}`)).status,
					200,
				);
			assert.equal(
				(await call(sim, 'GET', '/api/user/knowledgebases/1')).body.data.status,
				'empty',
			);
		},
	);

	await t.test('assistants: validation, create inactive, update active, mode change', async () => {
		const empty = await call(sim, 'POST', '/api/user/assistant', { body: {} });
		assert.equal(empty.status, 422);
		assert.equal(empty.body.message, 'Validation failed');
		for (const f of [
			'name',
			'voice_id',
			'language_id',
			'type',
			'mode',
			'timezone',
			'initial_message',
			'system_prompt',
		]) {
			assert.ok(empty.body.errors[f], `${f} required`);
		}
		const bad = await call(sim, 'POST', '/api/user/assistant', {
			body: {
				...VALID_PIPELINE,
				mode: 'multimodal',
				type: 'inbound',
				voice_id: 4,
				multimodal_model_id: 10,
				knowledgebase_id: 1,
				knowledgebase_mode: 'prompt',
				allow_interruptions: false,
				fillers: true,
				speech_speed: 1.5,
				max_duration: 10,
				phone_number_id: 4,
				tool_ids: [1, 42],
				is_webhook_active: true,
				post_call_schema: [{ name: 'A', type: 'boolean', description: 'x' }],
				tools: [{ type: 'call_transfer' }, { type: 'teleport' }],
			},
		});
		assert.equal(bad.status, 422);
		assert.deepEqual(Object.keys(bad.body.errors).sort(), [
			'allow_interruptions',
			'fillers',
			'knowledgebase_mode',
			'max_duration',
			'phone_number_id',
			'post_call_schema.0.description',
			'post_call_schema.0.name',
			'post_call_schema.0.type',
			'speech_speed',
			'tool_ids.1',
			'tools.0.phone_number',
			'tools.1.type',
			'voice_id',
			'webhook_url',
		]);
		assert.match(bad.body.errors.voice_id[0], /not compatible/);
		assert.match(bad.body.errors.phone_number_id[0], /Caller ID/);
		const taken = await call(sim, 'POST', '/api/user/assistant', {
			body: { ...VALID_PIPELINE, type: 'inbound', phone_number_id: 1 },
		});
		assert.match(taken.body.errors.phone_number_id[0], /already assigned/);

		const created = await call(sim, 'POST', '/api/user/assistant', {
			body: { ...VALID_PIPELINE, phone_number_id: 1 },
		});
		assert.equal(created.status, 201);
		assert.deepEqual(created.body, {
			message: 'Assistant created successfully',
			data: { id: 3, name: 'Support line', status: 'inactive', type: 'outbound', mode: 'pipeline' },
		});
		const stored = sim.state.assistants.find((a) => a.id === 3);
		assert.equal(stored.max_duration, 600);
		assert.equal(stored.synthesizer_provider_id, 1);
		assert.match(stored.uuid, /^[0-9a-f-]{36}$/);

		const modeOnly = await call(sim, 'PUT', '/api/user/assistant/3', {
			body: { mode: 'multimodal', voice_id: 10 },
		});
		assert.equal(modeOnly.status, 422);
		assert.ok(modeOnly.body.errors.multimodal_model_id);
		const updated = await call(sim, 'PUT', '/api/user/assistant/3', {
			body: {
				mode: 'dualplex',
				voice_id: 20,
				multimodal_model_id: 20,
				tool_ids: [],
				variables: { a: 1 },
				max_initial_silence_duration: null,
			},
		});
		assert.equal(updated.status, 200);
		assert.deepEqual(updated.body.data, {
			id: 3,
			name: 'Support line',
			status: 'active',
			type: 'outbound',
			mode: 'dualplex',
		});
		assert.equal(stored.llm_model_id, null);
		assert.equal(stored.transcriber_provider_id, null);
		assert.deepEqual(stored.variables, { a: 1 });
		const wrongModel = await call(sim, 'PUT', '/api/user/assistant/3', {
			body: { multimodal_model_id: 10 },
		});
		assert.match(wrongModel.body.errors.multimodal_model_id[0], /not a dualplex model/);
		const missing = await call(sim, 'PUT', '/api/user/assistant/999', { body: { name: 'x' } });
		assert.deepEqual([missing.status, missing.body], [404, { message: 'Assistant not found' }]);

		const listed = await call(sim, 'GET', '/api/user/assistants/get?per_page=2');
		assert.equal(listed.body.total, 3);
		assert.equal(listed.body.next_page_url, `${sim.url}/api/user/assistants/get?per_page=2&page=2`);
		const outbound = await call(sim, 'GET', '/api/user/assistants/outbound');
		assert.deepEqual(
			outbound.body.map((a) => a.id),
			[2, 3],
		);
		const voices = await call(sim, 'GET', '/api/user/assistants/voices?mode=multimodal');
		assert.deepEqual(
			voices.body.map((v) => v.id),
			[10, 11, 12],
		);
		const numbers = await call(sim, 'GET', '/api/user/assistants/phone-numbers?type=inbound');
		assert.ok(!numbers.body.some((n) => n.id === 1 || n.id === 4));
		assert.equal(
			(await call(sim, 'DELETE', '/api/user/assistant/3')).body.message,
			'Assistant deleted successfully',
		);
	});

	await t.test('tools: name rule, bare list and object, 404, plan limit', async () => {
		const bad = await call(sim, 'POST', '/api/user/tools', {
			body: {
				name: 'Get-Weather',
				description: 'x',
				endpoint: 'nope',
				method: 'FETCH',
				timeout: 31,
			},
		});
		assert.equal(bad.status, 422);
		assert.deepEqual(Object.keys(bad.body.errors).sort(), [
			'endpoint',
			'method',
			'name',
			'timeout',
		]);
		const good = {
			name: 'get_weather',
			description: 'Weather lookup',
			endpoint: 'https://api.example.com/w',
			method: 'GET',
		};
		const created = await call(sim, 'POST', '/api/user/tools', { body: good });
		assert.equal(created.status, 201);
		assert.equal(created.body.data.timeout, 10);
		const list = await call(sim, 'GET', '/api/user/tools');
		assert.ok(Array.isArray(list.body));
		const one = await call(sim, 'GET', `/api/user/tools/${created.body.data.id}`);
		assert.equal(one.body.name, 'get_weather');
		assert.deepEqual((await call(sim, 'GET', '/api/user/tools/999')).body, {
			message: 'Tool not found',
		});
		sim.setConfig({ toolLimit: 2 });
		const limited = await call(sim, 'POST', '/api/user/tools', {
			body: { ...good, name: 'third_tool' },
		});
		assert.equal(limited.status, 403);
		assert.match(limited.body.message, /upgrade your plan/);
	});

	await t.test(
		'tools: a call uses a tool of the assistant (method, headers, JSON arguments, timeout) and records the answer',
		async () => {
			const seen = [];
			let delayMs = 0;
			const receiver = http.createServer((req, res) => {
				const chunks = [];
				req.on('data', (c) => chunks.push(c));
				req.on('end', () => {
					seen.push({
						method: req.method,
						url: req.url,
						headers: req.headers,
						body: Buffer.concat(chunks).toString('utf8'),
					});
					setTimeout(() => {
						res.writeHead(200, { 'Content-Type': 'application/json' });
						res.end(JSON.stringify({ free: true }));
					}, delayMs);
				});
			});
			await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
			t.after(
				() =>
					new Promise((r) => {
						receiver.close(r);
						receiver.closeAllConnections();
					}),
			);
			const endpoint = `http://127.0.0.1:${receiver.address().port}/tool`;
			const created = await call(sim, 'POST', '/api/user/tools', {
				body: {
					name: 'check_slot',
					description: 'Checks a slot',
					endpoint,
					method: 'POST',
					timeout: 1,
					headers: [{ name: 'X-Tool-Secret', value: 's3cret' }],
					schema: [{ name: 'date', type: 'string', description: 'The date' }],
				},
			});
			assert.deepEqual(created.body.data.headers, [{ name: 'X-Tool-Secret', value: 's3cret' }]);
			const id = created.body.data.id;
			// a tool the assistant does not have is refused
			const notYet = await call(sim, 'POST', '/__sim/calls/use-tool', {
				auth: false,
				body: { assistant_id: 1, tool: 'check_slot', arguments: {} },
			});
			assert.equal(notYet.status, 404);
			await call(sim, 'PUT', '/api/user/assistant/1', { body: { tool_ids: [1, id] } });
			const listed = await call(sim, 'GET', '/api/user/assistants/get');
			assert.deepEqual(listed.body.data.find((a) => a.id === 1).tool_ids, [1, id]);
			const used = await call(sim, 'POST', '/__sim/calls/use-tool', {
				auth: false,
				body: { assistant_id: 1, tool: 'check_slot', arguments: { date: '2026-12-01' } },
			});
			assert.equal(used.status, 200);
			assert.deepEqual(
				[used.body.status, used.body.response, used.body.timed_out, used.body.tool_id],
				[200, { free: true }, false, id],
			);
			assert.ok(used.body.latency_ms >= 0);
			assert.deepEqual(
				[
					seen[0].method,
					seen[0].url,
					seen[0].headers['x-tool-secret'],
					seen[0].headers['content-type'],
					JSON.parse(seen[0].body),
				],
				['POST', '/tool', 's3cret', 'application/json', { date: '2026-12-01' }],
			);
			// by id too; an answer later than the tool's timeout is recorded as a timeout
			delayMs = 1500;
			const late = await call(sim, 'POST', '/__sim/calls/use-tool', {
				auth: false,
				body: { assistant_id: 1, tool: id, arguments: {} },
			});
			assert.deepEqual(
				[late.body.status, late.body.timed_out, late.body.error],
				[null, true, 'timeout after 1000 ms'],
			);
			assert.ok(late.body.latency_ms >= 1000 && late.body.latency_ms < 1400);
			assert.equal(sim.state.toolCalls.length, 2);
		},
	);

	await t.test('conversations: variables, charges, balance, not found', async () => {
		const uuid = sim.state.assistants[1].uuid;
		const conv = await call(sim, 'POST', '/api/conversations', {
			auth: false,
			body: { assistant_id: uuid, variables: { customer_name: 'Ann' } },
		});
		assert.equal(conv.status, 200);
		assert.deepEqual(conv.body.history, [
			{ role: 'assistant', content: 'Hi Ann, this is Mia from Acme. Do you have a minute?' },
		]);
		const sent = await call(
			sim,
			'POST',
			`/api/conversations/${conv.body.conversation_id}/messages`,
			{ auth: false, body: { message: 'Hello' } },
		);
		assert.equal(sent.body.status, true);
		assert.equal(typeof sent.body.message, 'string');
		assert.equal(sim.state.user.total_balance, 25.49);
		const hist = await call(sim, 'GET', `/api/conversations/${conv.body.conversation_id}`, {
			auth: false,
		});
		assert.equal(hist.body.history.length, 3);
		const unknown = await call(sim, 'POST', '/api/conversations', {
			auth: false,
			body: { assistant_id: 'nope' },
		});
		assert.deepEqual(
			[unknown.status, unknown.body],
			[404, { status: false, error: 'Assistant not found' }],
		);
		assert.deepEqual(
			(
				await call(sim, 'GET', '/api/conversations/00000000-0000-0000-0000-000000000000', {
					auth: false,
				})
			).body,
			{
				status: false,
				error: 'Conversation not found',
			},
		);
		await call(sim, 'POST', '/__sim/user', { auth: false, body: { total_balance: 0 } });
		const poor = await call(sim, 'POST', '/api/conversations', {
			auth: false,
			body: { assistant_id: uuid },
		});
		assert.deepEqual(
			[poor.status, poor.body],
			[402, { status: false, error: 'Insufficient balance. Please top up your account.' }],
		);
		const testConv = await call(sim, 'POST', '/api/conversations', {
			auth: false,
			body: { assistant_id: uuid, type: 'test' },
		});
		assert.equal(testConv.status, 200);
	});

	await t.test('webhooks: post-call and inbound deliveries, webhook_response stored', async () => {
		const receiver = await startReceiver();
		t.after(() => receiver.close());
		const upd = await call(sim, 'PUT', '/api/user/assistant/1', {
			body: {
				is_webhook_active: true,
				webhook_url: `${receiver.url}/post-call`,
				include_recording_in_webhook: false,
			},
		});
		assert.equal(upd.status, 200);
		const enable = await call(sim, 'POST', '/api/user/assistants/enable-inbound-webhook', {
			body: { assistant_id: 1, webhook_url: `${receiver.url}/inbound` },
		});
		assert.deepEqual(enable.body, { message: 'Inbound webhook enabled successfully', data: [] });
		const invalid = await call(sim, 'POST', '/api/user/assistants/enable-inbound-webhook', {
			body: {},
		});
		assert.equal(invalid.body.message, 'The given data was invalid.');
		assert.deepEqual(
			(
				await call(sim, 'POST', '/api/user/assistants/enable-inbound-webhook', {
					body: { assistant_id: 99, webhook_url: 'https://x.example' },
				})
			).body,
			{ message: 'Assistant not found' },
		);

		const done = await call(sim, 'POST', '/__sim/calls/complete', {
			auth: false,
			body: {
				assistant_id: 1,
				type: 'inbound',
				transcript_format: 'array',
				customer_phone: '+14155550123',
			},
		});
		assert.equal(done.status, 200);
		assert.deepEqual(
			done.body.deliveries.map((d) => [d.kind, d.status]),
			[
				['post_call', 200],
				['inbound', 200],
			],
		);
		assert.equal(receiver.got.length, 2);
		const payload = receiver.got[0].body;
		assert.equal(receiver.got[0].path, '/post-call');
		for (const f of [
			'id',
			'customer_phone',
			'assistant_phone',
			'duration',
			'status',
			'extracted_variables',
			'input_variables',
			'transcript',
			'created_at',
			'finished_at',
			'lead',
			'campaign',
		]) {
			assert.ok(f in payload, f);
		}
		assert.ok(!('recording_url' in payload));
		assert.equal(payload.customer_phone, '+14155550123');
		assert.equal(payload.assistant_phone, '+14155550101');
		assert.ok(Array.isArray(payload.transcript) && payload.transcript[0].sender === 'bot');
		assert.deepEqual(payload.extracted_variables, { reason: 'simulated reason' });
		const stored = await call(sim, 'GET', `/api/user/calls/${payload.id}`);
		assert.deepEqual(stored.body.webhook_response, { received: true, crm_id: 'abc' });
		assert.equal(typeof stored.body.transcript, 'string');

		// serviceZoneMinutes: the list's zone-less times are written in the service's zone, the
		// delivered ISO times stay UTC
		sim.setConfig({ serviceZoneMinutes: 345 });
		try {
			const zoned = await call(sim, 'POST', '/__sim/calls/complete', {
				auth: false,
				body: { assistant_id: 1 },
			});
			const posted = receiver.got[receiver.got.length - 1].body;
			const listed = (await call(sim, 'GET', `/api/user/calls/${posted.id}`)).body;
			assert.equal(zoned.status, 200);
			assert.equal(
				Date.parse(`${listed.created_at.replace(' ', 'T')}Z`) - Date.parse(posted.created_at),
				345 * 60_000,
			);
			assert.throws(() => sim.setConfig({ serviceZoneMinutes: 50 }), /quarter hours/);
		} finally {
			sim.setConfig({ serviceZoneMinutes: 0 });
		}

		// a call that ended a while ago: its times are set back, its delivery is posted now
		const late = await call(sim, 'POST', '/__sim/calls/complete', {
			auth: false,
			body: { assistant_id: 1, duration: 60, ended_seconds_ago: 240 },
		});
		const finishedAgo = Date.now() - Date.parse(late.body.payload.finished_at);
		assert.ok(finishedAgo >= 239_000 && finishedAgo < 260_000, `finished ${finishedAgo} ms ago`);
		assert.equal(
			Date.parse(late.body.payload.finished_at) - Date.parse(late.body.payload.created_at),
			60_000,
		);
		assert.equal(late.body.deliveries.length > 0, true);

		// failed calls produce no post-call webhook while send_webhook_only_on_completed is on
		receiver.got.length = 0;
		const failed = await call(sim, 'POST', '/__sim/calls/complete', {
			auth: false,
			body: { assistant_id: 1, status: 'failed', type: 'outbound' },
		});
		assert.deepEqual(failed.body.deliveries, []);
		assert.equal(failed.body.skipped.length, 2);
		assert.equal(receiver.got.length, 0);

		// campaign call: lead and campaign in the payload, recording when enabled
		await call(sim, 'PUT', '/api/user/assistant/2', {
			body: { is_webhook_active: true, webhook_url: `${receiver.url}/sales` },
		});
		const sales = await call(sim, 'POST', '/__sim/calls/complete', {
			auth: false,
			body: {
				assistant_id: 2,
				type: 'outbound',
				campaign_id: 1,
				customer_phone: '+14155559876',
				input_variables: { customer_name: 'Jane' },
			},
		});
		const sp = receiver.got[0].body;
		assert.equal(sales.body.deliveries.length, 1);
		assert.equal(sp.lead.id, 1);
		assert.equal(sp.campaign.name, 'Spring Outreach');
		assert.match(sp.recording_url, /\/__sim\/recordings\//);
		assert.equal(typeof sp.transcript, 'string');
		assert.match(sp.transcript, /Hi Jane/);
		const rec = await fetch(sp.recording_url);
		assert.equal(rec.headers.get('content-type'), 'audio/mpeg');

		const disabled = await call(sim, 'POST', '/api/user/assistants/disable-webhook', {
			body: { assistant_id: 2 },
		});
		assert.equal(disabled.status, 200);
		assert.equal(sim.state.assistants[1].is_webhook_active, false);
	});

	await t.test('phone numbers, catalogues, make_call', async () => {
		const all = await call(sim, 'GET', '/api/user/phone-numbers/all');
		assert.equal(all.body.data.length, 6);
		const legacy = await call(sim, 'GET', '/api/user/phone-numbers');
		assert.ok(legacy.body.data.every((n) => n.sms_capable && n.has_active_subscription));
		const search = await call(
			sim,
			'GET',
			'/api/user/phone-numbers/search?country_code=GB&contains=1234',
		);
		assert.ok(search.body.data.length > 0);
		assert.ok(
			search.body.data.every((n) => n.country_code === 'GB' && n.phone_number.includes('1234')),
		);
		const alias = await call(sim, 'GET', '/api/user/phone-numbers/search?country=DE');
		assert.deepEqual(alias.body.errors, { country: ['The selected country is invalid.'] });
		const digits = await call(sim, 'GET', '/api/user/phone-numbers/search?contains=12a');
		assert.equal(digits.status, 422);
		assert.equal(
			(await call(sim, 'GET', '/api/user/assistants/models?type=dualplex')).body.length,
			2,
		);
		assert.ok((await call(sim, 'GET', '/api/user/assistants/languages')).body.length >= 4);
		const campaigns = await call(sim, 'GET', '/api/user/campaigns');
		assert.equal(campaigns.body.data[0].name, 'Spring Outreach');

		const made = await call(sim, 'POST', '/api/user/make_call', {
			body: {
				assistant_id: 2,
				phone_number: '+4915123456789',
				variables: { customer_name: 'Max' },
			},
		});
		assert.equal(made.status, 200);
		assert.equal(made.body.status, 'initiated');
		const got = await call(sim, 'GET', `/api/user/calls/${made.body.call_id}`);
		assert.equal(got.body.status, 'initiated');
		assert.equal(
			(
				await call(sim, 'POST', '/api/user/make_call', {
					body: { assistant_id: 1, phone_number: '+4915123456789' },
				})
			).status,
			400,
		);
		assert.equal(
			(
				await call(sim, 'POST', '/api/user/make_call', {
					body: { assistant_id: 2, phone_number: '0151' },
				})
			).status,
			400,
		);
		assert.deepEqual((await call(sim, 'GET', '/api/user/calls/424242')).body, {
			message: 'Call not found',
		});
	});

	await t.test('latency option delays API answers', async () => {
		sim.setConfig({ latencyMs: 120 });
		const start = Date.now();
		await call(sim, 'GET', '/api/user/me');
		assert.ok(Date.now() - start >= 110);
		sim.setConfig({ latencyMs: 0 });
	});

	await t.test(
		'faults: a lost answer after a multipart upload or a SIP trunk create has stored it; a duplicate trunk is 409',
		async () => {
			sim.reset();
			const DOCS = '/api/user/knowledgebases/1/documents';
			const TRUNKS = '/api/user/phone-numbers/sip-trunks';
			const content = Buffer.from('Opening hours: 9-17\n');
			const upload = (name) => {
				const form = new FormData();
				form.append('name', name);
				form.append('type', 'txt');
				form.append('file', new Blob([content], { type: 'text/plain' }), 'hours.txt');
				return form;
			};
			const fault = (body) => call(sim, 'POST', '/__sim/faults', { auth: false, body });
			try {
				await fault({ method: 'POST', path: DOCS, rate: 1, kinds: ['lose-502'] });
				sim.clearLog();
				const lost = await call(sim, 'POST', DOCS, { raw: upload('Hours') });
				assert.equal(lost.status, 502);
				const stored = sim.state.documents.filter((d) => d.name === 'Hours');
				assert.equal(stored.length, 1);
				assert.equal(
					stored[0].file.sha256,
					crypto.createHash('sha256').update(content).digest('hex'),
				);
				assert.deepEqual(
					sim.log[0].body.files.map((f) => f.filename),
					['hours.txt'],
				);
				assert.equal(sim.log[0].status, 502);
				// the service refuses no second document of the same name
				await fault({ clear: true });
				assert.equal((await call(sim, 'POST', DOCS, { raw: upload('Hours') })).status, 201);
				assert.equal(sim.state.documents.filter((d) => d.name === 'Hours').length, 2);

				await fault({ method: 'POST', path: DOCS, rate: 1, kinds: ['lose-reset'] });
				await assert.rejects(call(sim, 'POST', DOCS, { raw: upload('Reset') }));
				assert.equal(sim.state.documents.filter((d) => d.name === 'Reset').length, 1);
				await fault({ clear: true });

				const trunk = {
					sip_trunk_type: 'number',
					phone_number: '+4930123456',
					sip_username: 'office-pbx',
					sip_password: 'secret',
					sip_address: 'sip.provider.example',
					sip_calling_format: '+e164',
					inbound_authorization_type: 'auth',
					country_code: 'DE',
				};
				// maxPerBody: the same body is faulted at most that often, another body as often as before
				await fault({
					method: 'POST',
					path: TRUNKS,
					rate: 1,
					kinds: ['refuse-500'],
					maxPerBody: 2,
				});
				const other = { ...trunk, sip_username: 'third-pbx' };
				const before = sim.state.phoneNumbers.length;
				const statuses = [];
				for (const body of [trunk, trunk, other, trunk, other])
					statuses.push((await call(sim, 'POST', TRUNKS, { body })).status);
				assert.deepEqual(statuses, [500, 500, 500, 201, 500]);
				assert.equal(sim.state.phoneNumbers.length, before + 1);
				await fault({ clear: true });
				sim.state.phoneNumbers = sim.state.phoneNumbers.slice(0, before);

				await fault({ method: 'POST', path: TRUNKS, rate: 1, kinds: ['lose-502'] });
				assert.equal((await call(sim, 'POST', TRUNKS, { body: trunk })).status, 502);
				// the resend is refused as a duplicate; the fault does not hide an error answer
				const again = await call(sim, 'POST', TRUNKS, { body: trunk });
				assert.equal(again.status, 409);
				assert.deepEqual(again.body, {
					error: 'A SIP trunk with this phone number, username and address already exists.',
				});
				await fault({ clear: true });
				const same = (p) => p.type === 'sip' && p.phone_number === trunk.phone_number;
				assert.equal(sim.state.phoneNumbers.filter(same).length, 1);
				// another username (or address) for the same number is another trunk
				assert.equal(
					(await call(sim, 'POST', TRUNKS, { body: { ...trunk, sip_username: 'second-pbx' } }))
						.status,
					201,
				);
				assert.equal(sim.state.phoneNumbers.filter(same).length, 2);
			} finally {
				await fault({ clear: true });
				sim.reset();
			}
		},
	);

	await t.test(
		'recordings: a second origin with recordingHost, the recording log, faults on GET /__sim/recordings/*',
		async () => {
			const own = await startSimulator({
				port: 0,
				rateLimit: false,
				recordingHost: true,
				redeliveryDelaysMs: [],
			});
			t.after(() => own.close());
			assert.match(own.recordingUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
			assert.notEqual(own.recordingUrl, own.url);
			// every recording_url points at the second origin: seeded calls, calls that end, the calls API
			assert.ok(
				own.state.calls
					.filter((c) => c.recording_url)
					.every((c) => c.recording_url.startsWith(`${own.recordingUrl}/__sim/recordings/`)),
			);
			const done = await call(own, 'POST', '/__sim/calls/complete', {
				auth: false,
				body: { assistant_id: 2, type: 'outbound' },
			});
			const listed = await call(own, 'GET', `/api/user/calls/${done.body.call.id}`);
			assert.equal(
				listed.body.recording_url,
				`${own.recordingUrl}/__sim/recordings/${done.body.call.id}.mp3`,
			);

			const plain = await fetch(listed.body.recording_url);
			assert.deepEqual(
				[plain.status, plain.headers.get('content-type'), (await plain.arrayBuffer()).byteLength],
				[200, 'audio/mpeg', 15],
			);
			const keyed = await fetch(listed.body.recording_url, { headers: AUTH });
			await keyed.arrayBuffer();
			assert.deepEqual(
				own.recordingLog.map((e) => [
					e.method,
					e.origin,
					e.path,
					e.carriesKey,
					e.headers.authorization,
					e.status,
				]),
				[
					[
						'GET',
						own.recordingUrl,
						`/__sim/recordings/${done.body.call.id}.mp3`,
						false,
						undefined,
						200,
					],
					[
						'GET',
						own.recordingUrl,
						`/__sim/recordings/${done.body.call.id}.mp3`,
						true,
						'Bearer ***',
						200,
					],
				],
			);
			// the key in a query string counts too; the API's own origin serves the recordings as well
			await (
				await fetch(`${own.url}/__sim/recordings/1.mp3?token=${DEFAULT_API_KEY}`)
			).arrayBuffer();
			assert.deepEqual(
				[own.recordingLog[2].origin, own.recordingLog[2].carriesKey],
				[own.url, true],
			);
			// the recordings' origin serves nothing else; recording requests stay out of the request log
			assert.equal((await fetch(`${own.recordingUrl}/api/user/me`, { headers: AUTH })).status, 404);
			assert.equal((await fetch(`${own.recordingUrl}/__sim/state`)).status, 404);
			assert.ok(own.log.every((e) => !e.path.startsWith('/__sim/')));
			const since = await call(own, 'GET', '/__sim/recording-log?since=2', { auth: false });
			assert.deepEqual(
				since.body.map((e) => e.index),
				[2],
			);

			// a fault rule whose path ends in * matches by prefix: the recordings fail, the API does not
			const rule = await call(own, 'POST', '/__sim/faults', {
				auth: false,
				body: {
					method: 'GET',
					path: '/__sim/recordings/*',
					rate: 1,
					kinds: ['refuse-500', 'lose-reset'],
				},
			});
			assert.equal(rule.status, 200);
			const failed = await fetch(listed.body.recording_url);
			assert.deepEqual([failed.status, await failed.json()], [500, { message: 'Server Error' }]);
			await assert.rejects(fetch(listed.body.recording_url));
			const onApiOrigin = await fetch(`${own.url}/__sim/recordings/1.mp3`);
			assert.equal(onApiOrigin.status, 500);
			await onApiOrigin.arrayBuffer();
			assert.equal((await call(own, 'GET', `/api/user/calls/${done.body.call.id}`)).status, 200);
			assert.deepEqual(
				own.recordingLog.slice(3).map((e) => e.status),
				[500, 'reset', 500],
			);
			assert.deepEqual(
				(await call(own, 'GET', '/__sim/faults', { auth: false })).body.faults[0].injected,
				{ 'refuse-500': 2, 'lose-reset': 1 },
			);
			await call(own, 'POST', '/__sim/faults', { auth: false, body: { clear: true } });
			assert.equal((await fetch(listed.body.recording_url)).status, 200);
			// holdRecordings: a recording request waits, logged and marked held, until the hold is lifted
			const hold = await call(own, 'POST', '/__sim/config', {
				auth: false,
				body: { holdRecordings: true },
			});
			assert.equal(hold.body.config.holdRecordings, true);
			let answered = false;
			const held = fetch(listed.body.recording_url).then(async (res) => {
				answered = true;
				return [res.status, (await res.arrayBuffer()).byteLength];
			});
			const entry = await waitFor(() => own.recordingLog.find((e, n) => n > 6 && e.held));
			await sleep(300);
			assert.equal(answered, false);
			assert.equal(entry.status, null);
			// the API is not held
			assert.equal((await call(own, 'GET', `/api/user/calls/${done.body.call.id}`)).status, 200);
			await call(own, 'POST', '/__sim/config', { auth: false, body: { holdRecordings: false } });
			assert.deepEqual(await held, [200, 15]);
			assert.equal(entry.status, 200);
			// clearing the log clears the recording log too
			await call(own, 'POST', '/__sim/log/clear', { auth: false });
			assert.deepEqual(own.recordingLog, []);
			await own.close();
			// without recordingHost the recordings stay on the API's origin
			assert.ok(
				sim.state.calls
					.filter((c) => c.recording_url)
					.every((c) => c.recording_url.startsWith(`${sim.url}/__sim/recordings/`)),
			);
			assert.equal(sim.recordingUrl, null);
		},
	);
});
