'use strict';
/**
 * What happens at the service over time: calls started by make_call ring, run
 * and end after `callLifecycleMs` (0: they wait for /__sim/calls/complete),
 * and webhook deliveries that get no 2xx answer are delivered again after
 * `redeliveryDelaysMs` (the service: 30, 60 and 120 s).
 */
const { deliver } = require('./webhooks');

const MOVING = ['initiated', 'ringing', 'in-progress'];

/**
 * Delivers `payload` to `url` and, while the answer is not a 2xx, again after
 * each of the configured delays. `redeliver` delivers once more even after a
 * 2xx (the service missed the answer). Every attempt is recorded in
 * state.webhookDeliveries; the first attempt's result is returned.
 */
async function deliverWithRetries(sim, { url, kind, payload, record = {}, redeliver = false }) {
	const state = sim.state;
	const attempt = async (n) => {
		const result = await deliver(url, payload, { timeoutMs: sim.config.webhookTimeoutMs });
		const delivery = { url, kind, attempt: n, status: result.status, response: result.response };
		if (result.error) delivery.error = result.error;
		(state.webhookDeliveries = state.webhookDeliveries || []).push({
			time: new Date().toISOString(),
			...record,
			...delivery,
			payload,
		});
		return delivery;
	};
	const delays = sim.config.redeliveryDelaysMs || [];
	const retry = (n, forced) => {
		if (n - 1 > delays.length) return;
		sim.schedule(delays[n - 2], async () => {
			const again = await attempt(n);
			if (!forced && !(again.status >= 200 && again.status < 300)) retry(n + 1, false);
		});
	};
	const first = await attempt(1);
	const ok = first.status >= 200 && first.status < 300;
	if (!ok || redeliver) retry(2, ok && redeliver);
	return first;
}

/** Moves the calls of make_call along: ringing, in progress, then completed with its webhooks. */
function advanceCalls(sim, completeCall) {
	const span = sim.config.callLifecycleMs;
	if (!(span > 0) || !sim.state) return;
	const now = Date.now();
	sim.scheduledCalls = sim.scheduledCalls || new Set();
	const since = sim.startedAt || 0;
	for (const call of sim.state.calls) {
		// only calls started while the simulator runs (not the sample data)
		if (!MOVING.includes(call.status) || call.created_ms < since) continue;
		const elapsed = now - call.created_ms;
		if (elapsed < span / 2) {
			if (call.status === 'initiated' && elapsed >= span / 4) call.status = 'ringing';
		} else if (call.status !== 'in-progress') {
			call.status = 'in-progress';
		}
		if (sim.scheduledCalls.has(call)) continue;
		sim.scheduledCalls.add(call);
		sim.schedule(Math.max(0, call.created_ms + span - now), () => {
			if (!MOVING.includes(call.status)) return;
			const outcome =
				(call.input_variables && call.input_variables.simulated_outcome) || 'completed';
			completeCall(sim, sim.state, { call_id: call.id, status: outcome }).catch((err) =>
				console.error('[simulator] call end', err),
			);
		});
	}
}

module.exports = { deliverWithRetries, advanceCalls };
