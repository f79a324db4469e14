'use strict';
/**
 * Self-test of the simulator, its flows: tool calls during a call, webhooks and their answers, phone numbers and calls, latency, recordings. Run through simulator.test.js or directly with `node test/simulator/selftestFlows.js`.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { startSimulator, DEFAULT_API_KEY } = require('./server');
const { AUTH, call, sleep, waitFor, startReceiver, simulatorSuite } = require('./selftestHelpers');

simulatorSuite(
	'simulator: flows (tool calls, webhooks, numbers, calls, recordings)',
	async (t, sim) => {
		await t.test(
			'tools: a call uses a tool of the assistant (method, headers, JSON arguments, timeout) and records the answer',
			async () => {
				let delayMs = 0;
				const receiver = await startReceiver({ free: true }, { delayMs: () => delayMs });
				t.after(() => receiver.close());
				const seen = receiver.got;
				const endpoint = `${receiver.url}/tool`;
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
						seen[0].path,
						seen[0].headers['x-tool-secret'],
						seen[0].headers['content-type'],
						seen[0].body,
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

		await t.test(
			'webhooks: post-call and inbound deliveries, webhook_response stored',
			async () => {
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
				assert.deepEqual(enable.body, {
					message: 'Inbound webhook enabled successfully',
					data: [],
				});
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
				assert.ok(
					finishedAgo >= 239_000 && finishedAgo < 260_000,
					`finished ${finishedAgo} ms ago`,
				);
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
			},
		);

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
				assert.equal(
					(await fetch(`${own.recordingUrl}/api/user/me`, { headers: AUTH })).status,
					404,
				);
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
	},
);
