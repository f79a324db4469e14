/**
 * What the e2e files and the queue suite ask of a running simulator beside the API: its test
 * controls (POST /__sim/...: calls that end, fault rules), copies of its seeded assistants, and the
 * wait until n8n serves an assistant's inbound webhook.
 */
const { waitFor } = require('./server');

/** POSTs `body` as JSON to the simulator's control `/__sim/<path>`; the response. */
function simPost(sim, path, body) {
	return fetch(`${sim.url}/__sim/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

/** simPost's answer as JSON; an answer that is not 2xx throws. */
async function simControl(sim, path, body) {
	const res = await simPost(sim, path, body);
	if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
	return await res.json();
}

/**
 * Ends a call at the simulator (`/__sim/calls/complete`: `assistant_id`, `customer_phone`,
 * `ended_seconds_ago`...; `call_id` delivers an ended call again): `{call, payload, deliveries}`.
 */
function completeCall(sim, body) {
	return simControl(sim, 'calls/complete', body);
}

/** Adds a copy of the simulator's assistant `fromId` with `fields` (its id among them); the copy. */
function addAssistant(sim, fromId, fields) {
	const copy = JSON.parse(JSON.stringify(sim.state.assistants.find((a) => a.id === fromId)));
	Object.assign(copy, fields);
	sim.state.assistants.push(copy);
	return copy;
}

/**
 * Waits until n8n serves the inbound webhook registered for the assistant: the URL is at the
 * simulator, and a POST to it without the secret is refused with 401 (which starts nothing).
 */
async function webhookLive(sim, assistantId) {
	const url = new URL(
		await waitFor(
			`the inbound webhook of assistant ${assistantId}`,
			() => sim.state.assistants.find((a) => a.id === assistantId).inbound_webhook_url,
		),
	);
	url.searchParams.delete('secret');
	await waitFor(`n8n to serve the webhook of assistant ${assistantId}`, async () => {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		await res.arrayBuffer();
		return res.status === 401;
	});
}

module.exports = { simPost, simControl, completeCall, addAssistant, webhookLive };
