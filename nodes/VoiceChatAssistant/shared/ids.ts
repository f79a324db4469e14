/**
 * Reading IDs from the values of parameters, shared by the action node and
 * both triggers. Imports nothing of the nodes (neither operations, router nor
 * triggers): each node words its own refusal around these readers.
 */

/** The value of a resource locator (`{__rl, mode, value}`), or a plain value as it is. */
export function locatorValue(value: unknown): unknown {
	if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'value' in value)
		return (value as { value: unknown }).value;
	return value;
}

/** Whether nothing was entered: undefined, null or a blank string. */
export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * A numeric ID (a number, or a string of one, surrounding blanks ignored): a
 * positive whole number, or undefined when the value is not one (blank included).
 */
export function parseId(value: unknown): number | undefined {
	const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
	if (!Number.isInteger(n) || n < 1 || String(value ?? '').trim() === '') return undefined;
	return n;
}

/** Whether a value is one of the allowed ones (compared as text). */
export function isOneOf(value: unknown, allowed: readonly string[]): boolean {
	return allowed.includes(String(value));
}
