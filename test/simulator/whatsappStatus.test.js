'use strict';
/**
 * Self-test of POST /__sim/whatsapp/status: the read receipt is signed over the
 * exact bytes sent (in every format), a wrong or no signature on request, a 5xx
 * is retried and a 4xx is not, a bad request is refused before anything is sent.
 * Run with `node --test test/simulator/`.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const crypto = require('node:crypto');
const { startSimulator } = require('./server');

const SECRET = 'whsec_selftest_0123456789';

/** A receiver that records each post's bytes and headers and answers with the next status of `answers`. */
async function receiver(answers = []) {
	const posts = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			posts.push({ headers: req.headers, body: Buffer.concat(chunks) });
			res.writeHead(answers[posts.length - 1] || 200, { 'content-type': 'application/json' });
			res.end('{"received":true}');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		posts,
		url: `http://127.0.0.1:${server.address().port}/hook`,
		close: () => new Promise((r) => server.close(r)),
	};
}

async function post(sim, body) {
	const res = await fetch(`${sim.url}/__sim/whatsapp/status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: res.status, body: await res.json() };
}

const hmac = (bytes, secret = SECRET) =>
	`sha256=${crypto.createHmac('sha256', secret).update(bytes).digest('hex')}`;

test('whatsapp status: signed over the exact bytes in every format; wrong, missing, retries', async (t) => {
	const sim = await startSimulator({ port: 0, rateLimit: false, redeliveryDelaysMs: [20, 20, 20] });
	t.after(() => sim.close());

	await t.test(
		'each format is signed as sent; the escaped one writes \\u and \\/ escapes',
		async () => {
			const rx = await receiver();
			t.after(() => rx.close());
			for (const format of ['compact', 'pretty', 'escaped']) {
				const { status, body } = await post(sim, {
					url: rx.url,
					status: 'read',
					secret: SECRET,
					format,
					display_name: 'Müller / Support',
				});
				assert.equal(status, 200);
				assert.equal(body.delivery.status, 200);
			}
			assert.equal(rx.posts.length, 3);
			for (const p of rx.posts) {
				assert.equal(p.headers['x-signature-256'], hmac(p.body));
				assert.equal(p.headers['content-type'], 'application/json');
				const parsed = JSON.parse(p.body.toString('utf8'));
				assert.equal(parsed.event, 'message_status');
				assert.equal(parsed.sender.display_name, 'Müller / Support');
			}
			const [compact, pretty, escaped] = rx.posts.map((p) => p.body.toString('utf8'));
			assert.ok(compact.includes('"Müller / Support"'));
			assert.ok(pretty.startsWith('{\n  "provider_timestamp"'));
			assert.ok(escaped.includes('"M\\u00fcller \\/ Support"'));
			// a made-up message gets a new id each time
			const ids = rx.posts.map((p) => JSON.parse(p.body.toString('utf8')).whatsapp_message_id);
			assert.equal(new Set(ids).size, 3);
		},
	);

	await t.test(
		'wrongSignature signs with another secret; unsigned sends no header; test adds test: true',
		async () => {
			const rx = await receiver();
			t.after(() => rx.close());
			await post(sim, { url: rx.url, status: 'failed', secret: SECRET, wrongSignature: true });
			await post(sim, { url: rx.url, status: 'failed', unsigned: true });
			await post(sim, { url: rx.url, status: 'sent', secret: SECRET, test: true });
			const [wrong, unsigned, testEvent] = rx.posts;
			assert.match(wrong.headers['x-signature-256'], /^sha256=[0-9a-f]{64}$/);
			assert.notEqual(wrong.headers['x-signature-256'], hmac(wrong.body));
			assert.equal(unsigned.headers['x-signature-256'], undefined);
			const failed = JSON.parse(unsigned.body.toString('utf8'));
			assert.equal(failed.status, 'failed');
			assert.equal(failed.error_code, '131026');
			assert.equal(JSON.parse(testEvent.body.toString('utf8')).test, true);
		},
	);

	await t.test(
		'a 503 is posted again (the same bytes), a 401 is not; redeliver posts once more after a 2xx',
		async () => {
			const rx = await receiver([503, 200, 401, 200, 200]);
			t.after(() => rx.close());
			const retried = await post(sim, { url: rx.url, status: 'delivered', secret: SECRET });
			assert.equal(retried.body.delivery.status, 503);
			for (let i = 0; i < 50 && rx.posts.length < 2; i++)
				await new Promise((r) => setTimeout(r, 10));
			assert.equal(rx.posts.length, 2);
			assert.ok(rx.posts[1].body.equals(rx.posts[0].body));
			assert.equal(rx.posts[1].headers['x-signature-256'], rx.posts[0].headers['x-signature-256']);

			const refused = await post(sim, { url: rx.url, status: 'read', unsigned: true });
			assert.equal(refused.body.delivery.status, 401);
			await new Promise((r) => setTimeout(r, 100));
			assert.equal(rx.posts.length, 3);

			const again = await post(sim, {
				url: rx.url,
				status: 'read',
				secret: SECRET,
				redeliver: true,
			});
			assert.equal(again.body.redelivery.status, 200);
			assert.equal(rx.posts.length, 5);
			assert.ok(rx.posts[4].body.equals(rx.posts[3].body));
			const kinds = sim.state.webhookDeliveries.filter(
				(d) => d.kind === 'message_status' && d.url === rx.url,
			);
			assert.deepEqual(
				kinds.map((d) => [d.attempt, d.status, d.signed]),
				[
					[1, 503, true],
					[2, 200, true],
					[1, 401, false],
					[1, 200, true],
					[2, 200, true],
				],
			);
		},
	);

	await t.test(
		'age_seconds dates the status back (or ahead), signed over the bytes sent as ever',
		async () => {
			const rx = await receiver();
			t.after(() => rx.close());
			const before = Date.now();
			await post(sim, { url: rx.url, status: 'read', secret: SECRET, age_seconds: 3600 });
			await post(sim, { url: rx.url, status: 'read', secret: SECRET, age_seconds: -600 });
			await post(sim, { url: rx.url, status: 'read', secret: SECRET });
			const after = Date.now();
			const [old, ahead, now] = rx.posts.map((p) => JSON.parse(p.body.toString('utf8')));
			const within = (value, offsetMs) => {
				const at = Date.parse(value);
				assert.ok(at >= before - offsetMs - 1000 && at <= after - offsetMs + 1000, value);
			};
			within(old.timestamp, 3_600_000);
			within(ahead.timestamp, -600_000);
			within(now.timestamp, 0);
			assert.equal(Date.parse(old.provider_timestamp), Date.parse(old.timestamp) - 1000);
			for (const p of rx.posts) assert.equal(p.headers['x-signature-256'], hmac(p.body));
			const bad = await post(sim, {
				url: rx.url,
				status: 'read',
				secret: SECRET,
				age_seconds: 'x',
			});
			assert.equal(bad.status, 422);
			assert.ok(bad.body.errors.age_seconds);
		},
	);

	await t.test(
		'a bad request is refused (422 naming the field, 404 for an unknown message) and nothing is sent',
		async () => {
			const rx = await receiver();
			t.after(() => rx.close());
			const badStatus = await post(sim, { url: rx.url, status: 'seen', secret: SECRET });
			assert.equal(badStatus.status, 422);
			assert.ok(badStatus.body.errors.status);
			const noSecret = await post(sim, { url: rx.url, status: 'read' });
			assert.equal(noSecret.status, 422);
			assert.ok(noSecret.body.errors.secret);
			const unknown = await post(sim, {
				url: rx.url,
				status: 'read',
				secret: SECRET,
				message_id: 99999,
			});
			assert.equal(unknown.status, 404);
			assert.equal(rx.posts.length, 0);
		},
	);
});
