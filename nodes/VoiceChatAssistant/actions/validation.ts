import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isBlank, isOneOf, parseId } from '../shared/ids';

/**
 * Checks made before a request is sent. Each refusal is a NodeOperationError
 * that names the field, the value and what is allowed.
 */

type Ctx = Pick<IExecuteFunctions, 'getNode'>;

/** A value as a refusal quotes it, cut to 60 characters. */
export function show(value: unknown): string {
	const text = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
	return text !== undefined && text.length > 60 ? `${text.slice(0, 57)}...` : String(text);
}

export function refuse(ctx: Ctx, itemIndex: number, message: string, description?: string): never {
	throw new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

export function checkMaxLength(
	ctx: Ctx,
	itemIndex: number,
	field: string,
	value: unknown,
	max: number,
) {
	if (typeof value === 'string' && value.length > max) {
		refuse(
			ctx,
			itemIndex,
			`${field} is too long: ${value.length} characters, at most ${max} are allowed`,
			`Shorten "${field}" to ${max} characters or fewer.`,
		);
	}
}

/** A text of `min` to `max` characters (anything but a text is left to other checks). */
export function checkLengthBetween(
	ctx: Ctx,
	itemIndex: number,
	field: string,
	value: unknown,
	{ min, max }: { min: number; max: number },
) {
	if (typeof value === 'string' && (value.length < min || value.length > max)) {
		refuse(
			ctx,
			itemIndex,
			`${field} must be ${min}-${max} characters long, got ${value.length} (${show(value)})`,
		);
	}
}

export function checkRequired(ctx: Ctx, itemIndex: number, field: string, value: unknown) {
	if (isBlank(value)) {
		refuse(ctx, itemIndex, `${field} is required`, `Enter a value for "${field}".`);
	}
}

export function checkNumberRange(
	ctx: Ctx,
	itemIndex: number,
	field: string,
	value: unknown,
	min: number,
	max: number,
	options: { integer?: boolean } = {},
) {
	if (value === undefined || value === null || value === '') return;
	const n = typeof value === 'number' ? value : Number(value);
	if (!Number.isFinite(n) || n < min || n > max || (options.integer && !Number.isInteger(n))) {
		refuse(
			ctx,
			itemIndex,
			`${field} must be ${options.integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${show(value)}`,
		);
	}
}

export function checkEnum(
	ctx: Ctx,
	itemIndex: number,
	field: string,
	value: unknown,
	allowed: readonly string[],
) {
	if (value === undefined || value === null || value === '') return;
	if (!isOneOf(value, allowed)) {
		refuse(ctx, itemIndex, `${field} must be one of ${allowed.join(', ')}, got ${show(value)}`);
	}
}

export const E164 = /^\+[1-9]\d{6,14}$/;

export function checkE164(ctx: Ctx, itemIndex: number, field: string, value: unknown) {
	if (typeof value !== 'string' || !E164.test(value)) {
		refuse(
			ctx,
			itemIndex,
			`${field} must be a phone number in E.164 form (a "+", the country code and the number, digits only, e.g. +4915112345678), got ${show(value)}`,
		);
	}
}

export function checkUrl(ctx: Ctx, itemIndex: number, field: string, value: unknown) {
	let ok = false;
	if (typeof value === 'string') {
		try {
			const url = new URL(value);
			ok = url.protocol === 'http:' || url.protocol === 'https:';
		} catch {
			ok = false;
		}
	}
	if (!ok) {
		refuse(ctx, itemIndex, `${field} must be a valid http(s) URL, got ${show(value)}`);
	}
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkUuid(ctx: Ctx, itemIndex: number, field: string, value: unknown) {
	if (typeof value !== 'string' || !UUID.test(value.trim())) {
		refuse(
			ctx,
			itemIndex,
			`${field} must be a UUID (e.g. 0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c), got ${show(value)}`,
		);
	}
}

/** An ID typed into a resource locator or an expression: a positive whole number. */
export function toId(ctx: Ctx, itemIndex: number, field: string, value: unknown): number {
	const n = parseId(value);
	if (n === undefined) {
		return refuse(ctx, itemIndex, `${field} must be a positive whole number, got ${show(value)}`);
	}
	return n;
}

/**
 * A date for the `YYYY-MM-DD` filters: accepts that form, an ISO 8601
 * timestamp, a Luxon DateTime or a JS Date (n8n date values); sends the date.
 */
export function toDateOnly(
	ctx: Ctx,
	itemIndex: number,
	field: string,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'object') {
		const maybe = value as { toISODate?: () => string | null; toISOString?: () => string };
		if (typeof maybe.toISODate === 'function') {
			const date = maybe.toISODate();
			if (date) return date;
		}
		if (typeof maybe.toISOString === 'function') return maybe.toISOString().slice(0, 10);
	}
	const text = String(value).trim();
	const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(text);
	if (match) {
		const [, y, m, d] = match;
		const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
		if (
			date.getUTCFullYear() === Number(y) &&
			date.getUTCMonth() === Number(m) - 1 &&
			date.getUTCDate() === Number(d)
		) {
			return `${y}-${m}-${d}`;
		}
	}
	return refuse(
		ctx,
		itemIndex,
		`${field} must be a date in the form YYYY-MM-DD (or an ISO 8601 date-time), got ${show(value)}`,
	);
}

/**
 * Names that a JavaScript object cannot carry as a plain field (`__proto__`
 * would change the object's prototype and vanish from the body) or that
 * n8n's expressions treat specially: refused as variable names.
 */
const RESERVED_VARIABLE_NAMES = ['__proto__', 'constructor', 'prototype'];

/** Refuses a reserved variable name (see RESERVED_VARIABLE_NAMES), naming the field. */
export function checkVariableName(ctx: Ctx, itemIndex: number, field: string, name: string) {
	if (RESERVED_VARIABLE_NAMES.includes(name))
		refuse(
			ctx,
			itemIndex,
			`${field} cannot have a variable named "${name}": the names ${RESERVED_VARIABLE_NAMES.join(', ')} are reserved`,
			'Rename the variable (for a CSV column with Variables From → Input Fields, rename the column or add it to Fields to Leave Out)',
		);
}

/**
 * The areas of the tz database's region/city names: its continents and oceans,
 * which do not change (new zones are new locations within them).
 */
const TIME_ZONE_AREAS = [
	'Africa',
	'America',
	'Antarctica',
	'Arctic',
	'Asia',
	'Atlantic',
	'Australia',
	'Europe',
	'Indian',
	'Pacific',
] as const;

const TIME_ZONE_NAME = new RegExp(
	`^(?:${TIME_ZONE_AREAS.join('|')})(?:/[A-Za-z][A-Za-z0-9_+-]*){1,2}$`,
);

/**
 * Whether `zone` is shaped like a region/city time zone name: Area/Location or
 * Area/Sub/Location, Area one of TIME_ZONE_AREAS, the rest letters, digits,
 * `_`, `-` and `+`. Deliberately not the runtime's ICU list: a zone newer than
 * the n8n process's ICU data (or a link such as Asia/Calcutta) must pass.
 */
export function isTimeZoneName(zone: string): boolean {
	return TIME_ZONE_NAME.test(zone);
}

/**
 * A region/city time zone name (see isTimeZoneName), trimmed. `UTC`, offsets,
 * `Etc/...` and areas the tz database does not have are refused.
 */
export function checkTimezone(
	ctx: Ctx,
	itemIndex: number,
	value: unknown,
	field = 'Timezone',
): string {
	const zone = String(value ?? '').trim();
	if (isTimeZoneName(zone)) return zone;
	return refuse(
		ctx,
		itemIndex,
		`${field} must be a region/city time zone name such as Europe/Berlin, got ${show(zone)}`,
		`Enter "${field}" as Area/Location, e.g. Europe/Berlin, America/New_York or Asia/Kolkata (the area one of ${TIME_ZONE_AREAS.join(', ')}). UTC and fixed offsets are not accepted.`,
	);
}
