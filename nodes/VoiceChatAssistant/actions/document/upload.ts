import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { refuse } from '../validation';

export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const FILE_TYPES = ['pdf', 'txt', 'docx'] as const;
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
export function detectFileType(binary: IBinaryData): FileType | undefined {
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

/** Opens the stored bytes of a file, from the start, each time it is called. */
type OpenStored = () => Promise<AsyncIterable<Uint8Array>>;

/**
 * A File whose bytes stay in n8n's binary store (disk or database) until the
 * request body is written. FormData keeps a File as it is, and the multipart
 * encoder reads it through `stream()` chunk by chunk: the upload holds no copy
 * of the file in memory. Every call of `stream()` reads the file anew, so a
 * request retried after a 429 sends the whole file again.
 */
export class StoredFile extends File {
	private readonly openStored: OpenStored;

	constructor(name: string, type: string, size: number, open: OpenStored) {
		super([], name, { type });
		this.openStored = open;
		// the native size getter would report the empty parts given to super()
		Object.defineProperty(this, 'size', { value: size, enumerable: true });
	}

	override stream(): ReadableStream<Uint8Array> {
		const open = this.openStored;
		let chunks: AsyncIterator<Uint8Array> | undefined;
		return new ReadableStream<Uint8Array>({
			async pull(controller) {
				chunks ??= (await open())[Symbol.asyncIterator]();
				const next = await chunks.next();
				if (next.done) controller.close();
				else controller.enqueue(next.value);
			},
			async cancel() {
				await chunks?.return?.();
			},
		});
	}

	override async arrayBuffer(): Promise<ArrayBuffer> {
		const parts: Uint8Array[] = [];
		for await (const chunk of await this.openStored()) parts.push(chunk);
		const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
		let offset = 0;
		for (const part of parts) {
			whole.set(part, offset);
			offset += part.length;
		}
		return whole.buffer;
	}

	override async text(): Promise<string> {
		return new TextDecoder().decode(await this.arrayBuffer());
	}
}

/**
 * The file of an item's binary property, checked before it is read: present,
 * not empty, at most 20 MB. The size comes from the binary's metadata (or the
 * inline data), so an oversized file is refused without loading it. A file in
 * n8n's binary store is streamed from there when the request is sent; inline
 * (base64) data is decoded once.
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
	if (storedId) {
		size = (await ctx.helpers.getBinaryMetadata(storedId)).fileSize;
	} else if (typeof binary.data === 'string') {
		size = Buffer.byteLength(binary.data, 'base64');
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
		return { file: new StoredFile(fileName, mimeType, size, open), fileType };
	}
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	checkSize(buffer.length);
	return { file: new File([buffer], fileName, { type: mimeType }), fileType };
}
