import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { checkVariableName, refuse, show, toDateOnly, toId } from './validation';

/**
 * Reading parameters into the values a request sends: each reader reads and
 * converts; the checks it makes on the way are those of ./validation.ts.
 */

type Ctx = Pick<IExecuteFunctions, 'getNode'>;

/** The numeric ID of a resource locator parameter (picked from the list, typed, or an expression). */
export function readLocatorId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	label: string,
): number {
	return toId(
		ctx,
		itemIndex,
		label,
		ctx.getNodeParameter(parameter, itemIndex, undefined, { extractValue: true }),
	);
}

/**
 * An optional ID of a filter or field: undefined when not given (empty, 0 or
 * no value), else a positive whole number (anything else is refused, naming the field).
 */
export function readOptionalId(
	ctx: Ctx,
	itemIndex: number,
	field: string,
	value: unknown,
): number | undefined {
	if (value === undefined || value === null || value === '' || value === 0) return undefined;
	return toId(ctx, itemIndex, field, value);
}

/** `date_from` / `date_to` of a filters collection as `YYYY-MM-DD` query values. */
export function dateRangeQuery(ctx: Ctx, itemIndex: number, filters: IDataObject): IDataObject {
	const qs: IDataObject = {};
	const from = toDateOnly(ctx, itemIndex, 'From Date', filters.date_from);
	const to = toDateOnly(ctx, itemIndex, 'To Date', filters.date_to);
	if (from) qs.date_from = from;
	if (to) qs.date_to = to;
	return qs;
}

/** Key/value pairs of a fixed collection (`{ values: [{ key, value }] }`) as an object. */
export function keyValuePairs(
	collection: unknown,
	listName = 'values',
	checkName?: (name: string) => void,
): IDataObject {
	const list = (collection as IDataObject | undefined)?.[listName];
	const result: IDataObject = {};
	if (!Array.isArray(list)) return result;
	for (const entry of list as IDataObject[]) {
		const key = String(entry.key ?? entry.name ?? '').trim();
		if (!key) continue;
		checkName?.(key);
		result[key] = entry.value as IDataObject[string];
	}
	return result;
}

/**
 * Variables given either as key/value pairs or as a JSON object (an
 * expression such as `{{ $json.variables }}` or a JSON string).
 */
export function readVariables(
	ctx: Ctx,
	itemIndex: number,
	field: string,
	pairs: unknown,
	json: unknown,
): IDataObject {
	const checkName = (name: string) => checkVariableName(ctx, itemIndex, field, name);
	const result = keyValuePairs(pairs, 'values', checkName);
	if (json === undefined || json === null || json === '') return result;
	let parsed = json;
	if (typeof json === 'string') {
		try {
			parsed = JSON.parse(json);
		} catch {
			refuse(ctx, itemIndex, `${field} must be a JSON object, got ${show(json)}`);
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		refuse(ctx, itemIndex, `${field} must be a JSON object, got ${show(json)}`);
	}
	Object.keys(parsed as IDataObject).forEach(checkName);
	return { ...(parsed as IDataObject), ...result };
}

/** The variables of `variablesFields` for one item. */
export function readVariableParams(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return readVariables(
		ctx,
		itemIndex,
		'Variables (JSON)',
		ctx.getNodeParameter('variables', itemIndex, {}),
		ctx.getNodeParameter('variablesJson', itemIndex, ''),
	);
}
