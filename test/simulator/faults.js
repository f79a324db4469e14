'use strict';
/**
 * Faults set with POST /__sim/faults: `{method, path, rate, kinds, seed, after, times, maxPerBody}`.
 * A request that matches a rule gets one of `kinds` with probability `rate` (a seeded generator, so
 * a run repeats), once `after` matching requests have passed, at most `times` times, and at most
 * `maxPerBody` times for one body (the same request sent again):
 * `refuse-503` / `refuse-500` / `refuse-502` answer before anything is stored (a 502: the
 * gateway lost the request, or the answer to a refused one); `lose-502` stores and answers
 * 502; `lose-reset` stores and drops the connection.
 */

const FAULT_KINDS = ['refuse-503', 'refuse-500', 'refuse-502', 'lose-502', 'lose-reset'];

/** A rule as stored in `sim.faults`, from the validated fields of the control call. */
function faultRule({ method, path, rate, kinds, seed, after, times, maxPerBody }) {
	const rule = {
		method,
		path,
		rate,
		kinds,
		state: seed ?? 1,
		count: 0,
		injected: {},
		after: after ?? 0,
		times: times ?? null,
		maxPerBody: maxPerBody ?? null,
		passed: 0,
	};
	// faults per body so far (kept out of the rule's JSON)
	Object.defineProperty(rule, 'perBody', { value: new Map() });
	return rule;
}

/** Whether a fault rule's path matches: exactly, or by prefix when the rule's path ends with `*`. */
function faultPathMatches(rulePath, path) {
	return rulePath.endsWith('*') ? path.startsWith(rulePath.slice(0, -1)) : rulePath === path;
}

/** Whether a fault rule for this request counts its faults per body. */
function countsPerBody(faults, method, path) {
	return (faults || []).some(
		(rule) =>
			rule.maxPerBody != null && rule.method === method && faultPathMatches(rule.path, path),
	);
}

/** The fault this request gets (one of the rule's kinds), or null. */
function pickFault(faults, method, path, body) {
	for (const rule of faults || []) {
		if (rule.method !== method || !faultPathMatches(rule.path, path)) continue;
		// `after`: that many matching requests pass first; `times`: at most that many faults
		if (rule.passed < (rule.after || 0)) {
			rule.passed++;
			continue;
		}
		if (rule.times != null && rule.count >= rule.times) continue;
		rule.state = (rule.state + 0x6d2b79f5) >>> 0;
		let t = rule.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		const random = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
		if (random >= rule.rate) continue;
		if (rule.maxPerBody != null) {
			const seen = rule.perBody.get(body) || 0;
			if (seen >= rule.maxPerBody) continue;
			rule.perBody.set(body, seen + 1);
		}
		const kind = rule.kinds[rule.count % rule.kinds.length];
		rule.count++;
		rule.injected[kind] = (rule.injected[kind] || 0) + 1;
		return kind;
	}
	return null;
}

module.exports = { FAULT_KINDS, faultRule, faultPathMatches, countsPerBody, pickFault };
