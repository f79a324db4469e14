'use strict';
/**
 * Self-test of the simulator, its API. Run with `node --test test/simulator/` (through simulator.test.js) or directly with `node test/simulator/selftest.js`; its flows are in selftestFlows.js.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { call, sleep, waitFor, VALID_PIPELINE, simulatorSuite } = require('./selftestHelpers');

simulatorSuite(
	'simulator: the API (authentication, validation, lists, leads, assistants, tools, conversations)',
	async (t, sim) => {
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
			assert.deepEqual((await call(sim, 'GET', '/api/user/nothing')).body, {
				message: 'Not Found',
			});
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
			const r = await call(sim, 'POST', '/__sim/calls/seed', {
				auth: false,
				body: { count: 10000 },
			});
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
				errors: {
					phone_number: ['A lead with this phone number already exists in this campaign.'],
				},
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

		await t.test(
			'assistants: validation, create inactive, update active, mode change',
			async () => {
				const empty = await call(sim, 'POST', '/api/user/assistant', { body: {} });
				assert.equal(empty.status, 422);
				assert.equal(empty.body.message, 'Validation failed');
				// every field of a valid pipeline assistant but its model is required
				for (const f of Object.keys(VALID_PIPELINE).filter((k) => k !== 'llm_model_id')) {
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
					data: {
						id: 3,
						name: 'Support line',
						status: 'inactive',
						type: 'outbound',
						mode: 'pipeline',
					},
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
				assert.equal(
					listed.body.next_page_url,
					`${sim.url}/api/user/assistants/get?per_page=2&page=2`,
				);
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
			},
		);

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
	},
);
