import type {
	FunctionsBase,
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asList, isObject } from './answers';
import { CREDENTIAL_TYPE, credentialSettings } from './credentials';
import type { RequestContext } from './credentials';
import { apiRequest } from './request';

/**
 * A call's recording as n8n binary data.
 *
 * - The API key goes along only to the credential's own origin (the scheme,
 *   host and port of its Base URL). A recording on a storage or CDN host is
 *   fetched without it (its URL carries its own access).
 * - Redirects are followed here, one hop at a time (at most MAX_REDIRECTS):
 *   each hop gets the key only when it is on the credential's origin, so a
 *   redirect never carries the key to another host.
 * - The body is streamed into n8n's binary data, never held whole in memory
 *   by this code, and stops at MAX_RECORDING_BYTES.
 * - Only audio (`audio/*`) or `application/octet-stream` is accepted.
 */

/** The largest recording accepted: 100 MiB (a call of several hours in MP3). */
export const MAX_RECORDING_BYTES = 100 * 1024 * 1024;
/** Redirect hops followed before giving up. */
export const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 120_000;

type RecordingContext = IExecuteFunctions | IPollFunctions | ITriggerFunctions | IWebhookFunctions;

export interface DownloadRecordingOptions {
	/** The size ceiling in bytes (default MAX_RECORDING_BYTES). */
	maxBytes?: number;
}

function firstLine(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.split('\n')[0] || 'unknown error';
}

function megabytes(bytes: number): string {
	if (bytes < 1024 * 1024) return `${bytes} bytes`;
	return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

function header(headers: unknown, name: string): string | undefined {
	if (!isObject(headers)) return undefined;
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

/** The parts of a Node.js readable stream this code uses (the response body with `encoding: 'stream'`). */
interface ByteStream {
	readableLength?: number;
	push(chunk: unknown, encoding?: BufferEncoding): boolean;
	destroy(error?: Error): void;
	on(event: 'error', listener: (error: Error) => void): unknown;
}

function isByteStream(body: unknown): body is ByteStream {
	const stream = body as Partial<ByteStream> | null | undefined;
	return (
		typeof stream?.push === 'function' &&
		typeof stream.destroy === 'function' &&
		typeof stream.on === 'function'
	);
}

/**
 * Counts the bytes that enter the stream (everything its source pushes, from
 * what is buffered already on) and fails the stream once they exceed
 * `maxBytes`, so whoever reads it gets an error instead of the rest.
 */
function capStream(body: ByteStream, maxBytes: number): { exceeded: () => boolean } {
	let bytes = body.readableLength ?? 0;
	let exceeded = false;
	const push = body.push.bind(body);
	body.push = (chunk: unknown, encoding?: BufferEncoding) => {
		if (!exceeded && chunk !== null && chunk !== undefined) {
			bytes += (chunk as { length?: number }).length ?? 0;
			if (bytes > maxBytes) {
				exceeded = true;
				body.destroy(new Error(`more than ${megabytes(maxBytes)}`));
				return false;
			}
		}
		return push(chunk, encoding);
	};
	return { exceeded: () => exceeded || bytes > maxBytes };
}

function discard(body: unknown) {
	const stream = body as { destroy?: () => void } | null | undefined;
	if (stream && typeof stream.destroy === 'function') stream.destroy();
}

/**
 * Fetches the recording, following redirects by hand (the key only on the
 * credential's origin), and returns the final answer with its body as a stream.
 */
async function fetchRecording(
	ctx: RecordingContext,
	url: string,
	callId: string,
): Promise<{ response: IN8nHttpFullResponse; finalUrl: URL }> {
	const credentialOrigin = new URL((await credentialSettings(ctx as RequestContext)).baseUrl)
		.origin;
	let current = new URL(url);
	for (let hop = 0; ; hop++) {
		const request: IHttpRequestOptions = {
			method: 'GET',
			url: current.href,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: TIMEOUT_MS,
		};
		const response = (
			current.origin === credentialOrigin
				? await ctx.helpers.httpRequestWithAuthentication.call(
						ctx as unknown as FunctionsBase & IExecuteFunctions,
						CREDENTIAL_TYPE,
						request,
					)
				: await ctx.helpers.httpRequest(request)
		) as IN8nHttpFullResponse;
		const status = Number(response.statusCode);
		if (status >= 300 && status < 400) {
			discard(response.body);
			const location = header(response.headers, 'location');
			if (!location) {
				throw new Error(`the server answered HTTP ${status} without a Location`);
			}
			if (hop >= MAX_REDIRECTS) {
				throw new Error(`more than ${MAX_REDIRECTS} redirects`);
			}
			const next = new URL(location, current);
			if (next.protocol !== 'https:' && next.protocol !== 'http:') {
				throw new Error(`a redirect to a ${next.protocol} address`);
			}
			current = next;
			continue;
		}
		if (status < 200 || status >= 300) {
			discard(response.body);
			throw new Error(`the server answered HTTP ${status} (call ${callId})`);
		}
		return { response, finalUrl: current };
	}
}

/**
 * A call's recording as n8n binary data (see above). Throws a
 * NodeOperationError naming the call when it cannot be had.
 */
export async function downloadRecording(
	ctx: RecordingContext,
	url: string,
	callId: unknown,
	options: DownloadRecordingOptions = {},
): Promise<IBinaryData> {
	const node = ctx.getNode();
	const id = String(callId);
	const maxBytes = options.maxBytes ?? MAX_RECORDING_BYTES;
	let source: URL;
	try {
		source = new URL(url);
	} catch {
		throw new NodeOperationError(node, `The recording URL of call ${id} is not a URL`);
	}
	if (source.protocol !== 'https:' && source.protocol !== 'http:') {
		throw new NodeOperationError(node, `The recording URL of call ${id} is not an http(s) URL`);
	}

	let response: IN8nHttpFullResponse;
	try {
		({ response } = await fetchRecording(ctx, source.href, id));
	} catch (error) {
		throw new NodeOperationError(
			node,
			`The recording of call ${id} could not be downloaded: ${firstLine(error)}`,
		);
	}

	const type = header(response.headers, 'content-type')?.split(';')[0].trim().toLowerCase();
	if (type && !type.startsWith('audio/') && type !== 'application/octet-stream') {
		discard(response.body);
		throw new NodeOperationError(
			node,
			`The recording of call ${id} is not audio: the server sent content type "${type}"`,
			{ description: 'Only audio/* and application/octet-stream are taken as a recording.' },
		);
	}
	const declared = Number(header(response.headers, 'content-length'));
	if (Number.isFinite(declared) && declared > maxBytes) {
		discard(response.body);
		throw tooLarge(node, id, maxBytes, `${megabytes(declared)}`);
	}

	const body = response.body as unknown;
	const name = source.pathname.split('/').pop() || `call-${id}.mp3`;
	let cap: { exceeded: () => boolean };
	if (Buffer.isBuffer(body)) {
		cap = { exceeded: () => body.length > maxBytes };
	} else if (isByteStream(body)) {
		// an error is reported by prepareBinaryData; this listener keeps an early one from going unhandled
		body.on('error', () => undefined);
		cap = capStream(body, maxBytes);
	} else {
		throw new NodeOperationError(
			node,
			`The recording of call ${id} could not be downloaded: the answer has no body`,
		);
	}
	if (cap.exceeded()) {
		discard(body);
		throw tooLarge(node, id, maxBytes, `more than ${megabytes(maxBytes)}`);
	}
	try {
		return await ctx.helpers.prepareBinaryData(
			body as Parameters<RecordingContext['helpers']['prepareBinaryData']>[0],
			name,
			type || undefined,
		);
	} catch (error) {
		discard(body);
		if (cap.exceeded()) throw tooLarge(node, id, maxBytes, `more than ${megabytes(maxBytes)}`);
		throw new NodeOperationError(
			node,
			`The recording of call ${id} could not be downloaded: ${firstLine(error)}`,
		);
	}
}

function tooLarge(node: INode, id: string, maxBytes: number, size: string) {
	return new NodeOperationError(
		node,
		`The recording of call ${id} is too large (${size}; at most ${megabytes(maxBytes)} are downloaded)`,
	);
}

/** What narrows the search for a call in the service's call list. */
export interface CallLookup {
	assistantId: number;
	callId: number | string;
	/** The customer's number as the service sent it (`customer_phone`). */
	customerPhone?: unknown;
	/** When the call began or ended (`created_at` / `finished_at`, ISO 8601 or `YYYY-MM-DD HH:MM:SS`). */
	when?: unknown;
}

/** Pages of the call list read before giving up (100 calls each, newest first). */
const CALL_LIST_PAGES = 5;

function shiftDay(day: string, days: number): string {
	const date = new Date(`${day}T00:00:00Z`);
	date.setUTCDate(date.getUTCDate() + days);
	return date.toISOString().slice(0, 10);
}

/** The query that lists the calls of one assistant around one day (and one customer number). */
export function callListQuery(lookup: CallLookup): IDataObject {
	const qs: IDataObject = { assistant_id: lookup.assistantId, per_page: 100 };
	if (typeof lookup.customerPhone === 'string' && lookup.customerPhone.trim() !== '') {
		qs.phone_number = lookup.customerPhone.trim();
	}
	const day =
		typeof lookup.when === 'string' ? /^(\d{4}-\d{2}-\d{2})/.exec(lookup.when)?.[1] : undefined;
	if (day && !Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
		// a day either side: the list filters by the account's time zone, the webhook sends UTC
		qs.date_from = shiftDay(day, -1);
		qs.date_to = shiftDay(day, 1);
	}
	return qs;
}

/**
 * A call as the service lists it, looked up in the call list filtered by the assistant (so a call
 * of another assistant is never found), its customer's number and a day either side of `when`:
 * undefined when the list does not show it (at most CALL_LIST_PAGES pages read).
 */
export async function listedCall(
	ctx: RecordingContext,
	lookup: CallLookup,
): Promise<IDataObject | undefined> {
	const qs = callListQuery(lookup);
	const wanted = String(lookup.callId);
	for (let page = 1; page <= CALL_LIST_PAGES; page++) {
		const response = await apiRequest.call(ctx as RequestContext, 'GET', '/api/user/calls', {
			qs: { ...qs, page },
		});
		const items = asList(response);
		const call = items.find((item) => String(item.id) === wanted);
		if (call) return call;
		const next = isObject(response) ? response.next_page_url : undefined;
		const last = isObject(response) ? Number(response.last_page) : NaN;
		if (items.length === 0 || (!next && !(Number.isFinite(last) && page < last))) break;
	}
	return undefined;
}

/**
 * The recording URL of a call, read from the service's call list (listedCall): the URL to
 * download, from the service itself rather than from what was posted. Throws a
 * NodeOperationError when the call is not listed or has no recording.
 */
export async function recordingUrlOfCall(
	ctx: RecordingContext,
	lookup: CallLookup,
): Promise<string> {
	const node = ctx.getNode();
	const wanted = String(lookup.callId);
	const call = await listedCall(ctx, lookup);
	if (!call) {
		throw new NodeOperationError(
			node,
			`Call ${wanted} is not among the calls of assistant ${lookup.assistantId} at the service`,
		);
	}
	const url = call.recording_url;
	if (typeof url !== 'string' || url.trim() === '') {
		throw new NodeOperationError(node, `The service lists no recording for call ${wanted} (yet)`);
	}
	return url;
}

/**
 * Downloads a recording into the item's binary `data`, from `source`: its address, or the call a
 * lookup names (its address read from the call list: recordingUrlOfCall), or an error saying why
 * there is none. What fails never holds the item back: it goes on without the binary, with
 * `recording_error` saying why, and n8n's log gets a warning (`log`: who writes it).
 */
export async function recordingInto(
	ctx: RecordingContext,
	item: INodeExecutionData,
	source: string | CallLookup | Error,
	{ callId, log }: { callId: unknown; log: string },
): Promise<void> {
	try {
		if (source instanceof Error) throw source;
		const url = typeof source === 'string' ? source : await recordingUrlOfCall(ctx, source);
		item.binary = { data: await downloadRecording(ctx, url, callId) };
	} catch (error) {
		const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
		item.json.recording_error = message;
		const label =
			typeof callId === 'number' || typeof callId === 'string' ? String(callId) : 'without an id';
		ctx.logger.warn(`${log} call ${label} goes on without its recording: ${message}`);
	}
}
