import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { refuse } from '../validation';

export const MAX_FILE_BYTES = 20 * 1024 * 1024;

const FILE_TYPES = ['pdf', 'txt', 'docx'] as const;
export type FileType = (typeof FILE_TYPES)[number];

const BY_MIME: Record<string, FileType> = {
	'application/pdf': 'pdf',
	'text/plain': 'txt',
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

const MIME_OF: Record<FileType, string> = {
	pdf: 'application/pdf',
	txt: 'text/plain',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

function megabytes(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** pdf, txt or docx from the MIME type or the file extension. */
function detectFileType(binary: IBinaryData): FileType | undefined {
	const mime = String(binary.mimeType ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
	if (BY_MIME[mime]) return BY_MIME[mime];
	const extension = String(
		binary.fileExtension ?? binary.fileName?.split('.').pop() ?? '',
	).toLowerCase();
	return (FILE_TYPES as readonly string[]).includes(extension)
		? (extension as FileType)
		: undefined;
}

/** Opens the bytes of a file, from the start, each time it is called. */
type OpenBytes = () => Promise<AsyncIterable<Uint8Array> | Iterable<Uint8Array>>;

/** Base64 characters decoded at a time: a multiple of 4, so that each slice decodes on its own (48 KiB). */
export const BASE64_SLICE_CHARS = 64 * 1024;

/**
 * Whether inline base64 data decodes slice by slice to exactly the bytes of
 * decoding it whole, and `Buffer.byteLength(data, 'base64')` is its exact
 * length: only characters of the base64 (or base64url) alphabet, padding at
 * the end only. n8n writes its inline data so; anything else (line breaks,
 * spaces) is decoded whole.
 */
export function isSliceableBase64(data: string): boolean {
	return /^[A-Za-z0-9+/_-]*={0,2}$/.test(data);
}

/**
 * The bytes of base64 `data`, decoded one slice of `sliceChars` characters
 * (a multiple of 4) at a time: the same bytes as `Buffer.from(data, 'base64')`
 * for data that `isSliceableBase64` accepts, without ever holding them all.
 */
export function* decodeBase64Slices(
	data: string,
	sliceChars: number = BASE64_SLICE_CHARS,
): Generator<Buffer> {
	if (!Number.isInteger(sliceChars) || sliceChars <= 0 || sliceChars % 4 !== 0) {
		throw new RangeError(`sliceChars must be a positive multiple of 4, got ${sliceChars}`);
	}
	for (let start = 0; start < data.length; start += sliceChars) {
		const bytes = Buffer.from(data.slice(start, start + sliceChars), 'base64');
		if (bytes.length) yield bytes;
	}
}

/** Bytes sent at a time from a file already in memory. */
const MEMORY_CHUNK_BYTES = 64 * 1024;

/** A buffer as views of at most 64 KiB: no copy of its bytes. */
function* viewsOf(buffer: Uint8Array): Generator<Uint8Array> {
	for (let start = 0; start < buffer.length; start += MEMORY_CHUNK_BYTES) {
		yield buffer.subarray(start, start + MEMORY_CHUNK_BYTES);
	}
}

/**
 * A File whose bytes are produced only while the request body is written:
 * read from n8n's binary store (disk or database), or decoded slice by slice
 * from an item's inline base64 data. FormData keeps a File as it is, and the
 * multipart encoder (axios) reads it through `stream()` chunk by chunk, so the
 * upload never holds a copy of the whole file (a File made from a buffer would
 * copy it once more; n8n's database store, though, reads a file whole before
 * it streams it). Every call of `stream()` reads the file anew, so a request
 * retried after a 429 sends the whole file again.
 */
export class StreamedFile extends File {
	private readonly openBytes: OpenBytes;

	constructor(name: string, type: string, size: number, open: OpenBytes) {
		super([], name, { type });
		this.openBytes = open;
		// the native size getter would report the empty parts given to super()
		Object.defineProperty(this, 'size', { value: size, enumerable: true });
	}

	private async *chunks(): AsyncGenerator<Uint8Array> {
		yield* await this.openBytes();
	}

	override stream(): ReadableStream<Uint8Array> {
		const chunks = this.chunks();
		return new ReadableStream<Uint8Array>({
			async pull(controller) {
				const next = await chunks.next();
				if (next.done) controller.close();
				else controller.enqueue(next.value);
			},
			async cancel() {
				await chunks.return(undefined);
			},
		});
	}

	override async bytes(): Promise<Uint8Array> {
		const parts: Uint8Array[] = [];
		for await (const chunk of this.chunks()) parts.push(chunk);
		const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
		let offset = 0;
		for (const part of parts) {
			whole.set(part, offset);
			offset += part.length;
		}
		return whole;
	}

	override async arrayBuffer(): Promise<ArrayBuffer> {
		return (await this.bytes()).buffer as ArrayBuffer;
	}

	override async text(): Promise<string> {
		return new TextDecoder().decode(await this.bytes());
	}
}

/**
 * The file of an item's binary property, checked before it is read: present,
 * not empty, at most 20 MB. The size comes from the binary's metadata (or the
 * length of the inline data), so an oversized file is refused without loading
 * it. Nothing is read here: a file in n8n's binary store is streamed from
 * there when the request is sent, inline (base64) data is decoded slice by
 * slice as it is sent.
 */
export async function readUploadFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	type: FileType | 'auto',
): Promise<{ file: File; fileType: FileType }> {
	const binaries = ctx.getInputData()[itemIndex]?.binary ?? {};
	const binary = binaries[property];
	if (!binary) {
		const present = Object.keys(binaries);
		refuse(
			ctx,
			itemIndex,
			`The input item has no binary property "${property}"`,
			present.length
				? `Its binary properties are: ${present.join(', ')}. Set "Input Binary Field" to one of them.`
				: 'The item has no binary data at all. Read or download the file in a node before this one.',
		);
	}
	let size: number | undefined;
	const storedId = binary.id;
	const inline = !storedId && typeof binary.data === 'string' ? binary.data : undefined;
	if (storedId) {
		size = (await ctx.helpers.getBinaryMetadata(storedId)).fileSize;
	} else if (inline !== undefined) {
		size = Buffer.byteLength(inline, 'base64');
	}
	const checkSize = (bytes: number) => {
		if (bytes === 0)
			refuse(ctx, itemIndex, `The file in binary property "${property}" is empty (0 bytes)`);
		if (bytes > MAX_FILE_BYTES) {
			refuse(
				ctx,
				itemIndex,
				`The file in binary property "${property}" is ${megabytes(bytes)}; the service accepts at most 20 MB`,
			);
		}
	};
	if (size !== undefined) checkSize(size);
	const fileType = type === 'auto' ? detectFileType(binary) : type;
	if (!fileType) {
		refuse(
			ctx,
			itemIndex,
			`The file type of "${binary.fileName ?? property}" (${binary.mimeType || 'unknown MIME type'}) cannot be uploaded; accepted are pdf, txt and docx`,
			'Convert the file, or choose the document type explicitly.',
		);
	}
	const mimeType =
		binary.mimeType && binary.mimeType !== 'application/octet-stream'
			? binary.mimeType
			: MIME_OF[fileType];
	const fileName = binary.fileName ?? `${property}.${fileType}`;
	if (storedId && size !== undefined && typeof ctx.helpers.getBinaryStream === 'function') {
		const open = async () => await ctx.helpers.getBinaryStream(storedId);
		return { file: new StreamedFile(fileName, mimeType, size, open), fileType };
	}
	if (inline !== undefined && size !== undefined && isSliceableBase64(inline)) {
		const open = async () => decodeBase64Slices(inline);
		return { file: new StreamedFile(fileName, mimeType, size, open), fileType };
	}
	// an older n8n without streams, or base64 with line breaks: decoded whole, sent without a second copy
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	checkSize(buffer.length);
	const open = async () => viewsOf(buffer);
	return { file: new StreamedFile(fileName, mimeType, buffer.length, open), fileType };
}
