import type { IDataObject } from 'n8n-workflow';

/** Shapes of the service's answers: a list (bare or wrapped) and a record (bare or wrapped). */

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The list in an answer: a bare array, or `{data: [...]}`. */
export function asList(response: unknown): IDataObject[] {
	if (Array.isArray(response)) return response as IDataObject[];
	const data = (response as IDataObject | undefined)?.data;
	return Array.isArray(data) ? (data as IDataObject[]) : [];
}

/** The record in an answer: `{data: {...}}` / `{message, data: {...}}`, or the bare object. */
export function unwrap(response: unknown): IDataObject {
	if (response && typeof response === 'object' && !Array.isArray(response)) {
		const data = (response as IDataObject).data;
		if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
		return response as IDataObject;
	}
	return { result: response as IDataObject[string] };
}

/** The service's `message` of an answer, as an object to spread into an item (empty without one). */
export function messageOf(answer: unknown): IDataObject {
	return isObject(answer) && answer.message ? { message: answer.message } : {};
}

/** The record of a `{message, data}` answer with its message. */
export function recordWithMessage(answer: unknown): IDataObject {
	return { ...unwrap(answer), ...messageOf(answer) };
}
