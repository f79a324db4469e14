import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

/**
 * Parameters read for every item, read once per node run where that gives the
 * same answer: a parameter whose stored value holds no expression (none of its
 * strings starts with "=") is the same for every item, so n8n's lookup (the
 * node type, defaults, type checks, about 0.04 ms a call) runs for the first
 * item only. A parameter with an expression is read for each item as before.
 * Lead → Create reads six parameters per item; at thousands of items without a
 * rate limit this work is a measurable part of the run (docs/performance.md).
 */
type Options = { extractValue?: boolean };

interface RunCache {
	/** The node's stored parameters (n8n copies the node on every getNode()). */
	stored: INodeParameters | undefined;
	values: Map<string, unknown>;
}

const runs = new WeakMap<IExecuteFunctions, RunCache>();

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

function storedValue(stored: INodeParameters, name: string): unknown {
	let current: unknown = stored;
	for (const part of name.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as INodeParameters)[part];
	}
	return current;
}

function runCache(ctx: IExecuteFunctions): RunCache {
	let cache = runs.get(ctx);
	if (!cache) {
		const parameters = ctx.getNode()?.parameters;
		cache = {
			stored: parameters && typeof parameters === 'object' ? parameters : undefined,
			values: new Map(),
		};
		runs.set(ctx, cache);
	}
	return cache;
}

/**
 * `ctx.getNodeParameter(name, itemIndex, fallback, options)`, read once per
 * run when the parameter holds no expression. Objects are handed out as
 * copies, so a caller may change what it gets.
 */
export function itemParameter(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options?: Options,
): unknown {
	const cache = runCache(ctx);
	const key = options?.extractValue ? `${name}\u0000value` : name;
	if (cache.values.has(key)) return copy(cache.values.get(key));
	const value = ctx.getNodeParameter(name, itemIndex, fallback, options);
	if (cache.stored && !hasExpression(storedValue(cache.stored, name))) {
		cache.values.set(key, copy(value));
	}
	return value;
}

function copy<T>(value: T): T {
	return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}
