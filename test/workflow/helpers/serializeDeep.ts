/**
 * Everything reachable from a value as one string: own properties of errors
 * (message, stack, description, cause, context...) included, which
 * `JSON.stringify` leaves out. Tests search it for secrets.
 */
export function serializeDeep(value: unknown): string {
	const seen = new WeakSet<object>();
	const walk = (current: unknown): unknown => {
		if (current === null || typeof current !== 'object') {
			return typeof current === 'function'
				? `[function ${(current as { name?: string }).name ?? ''}]`
				: current;
		}
		if (seen.has(current)) return '[circular]';
		seen.add(current);
		if (Buffer.isBuffer(current)) return current.toString('utf8');
		if (Array.isArray(current)) return current.map(walk);
		if (current instanceof Map) return walk(Object.fromEntries(current));
		if (current instanceof Set) return walk([...current]);
		const out: Record<string, unknown> = {};
		for (const key of Object.getOwnPropertyNames(current)) {
			try {
				out[key] = walk((current as Record<string, unknown>)[key]);
			} catch {
				out[key] = '[unreadable]';
			}
		}
		return out;
	};
	return JSON.stringify(walk(value));
}
