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
	const mime = String(binary.mimeType ?? '').split(';')[0].trim().toLowerCase();
	if (BY_MIME[mime]) return BY_MIME[mime];
	const extension = String(binary.fileExtension ?? binary.fileName?.split('.').pop() ?? '').toLowerCase();
	return (FILE_TYPES as readonly string[]).includes(extension) ? (extension as FileType) : undefined;
}

/**
 * The file of an item's binary property, checked before it is read: present,
 * not empty, at most 20 MB. The size comes from the binary's metadata (or the
 * inline data), so an oversized file is refused without loading it.
 */
export async function readUploadFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	type: FileType | 'auto',
): Promise<{ blob: Blob; fileName: string; fileType: FileType }> {
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
	if (binary.id) {
		size = (await ctx.helpers.getBinaryMetadata(binary.id)).fileSize;
	} else if (typeof binary.data === 'string') {
		size = Buffer.byteLength(binary.data, 'base64');
	}
	if (size === 0) refuse(ctx, itemIndex, `The file in binary property "${property}" is empty (0 bytes)`);
	if (size !== undefined && size > MAX_FILE_BYTES) {
		refuse(ctx, itemIndex, `The file in binary property "${property}" is ${megabytes(size)}; the service accepts at most 20 MB`);
	}
	const fileType = type === 'auto' ? detectFileType(binary) : type;
	if (!fileType) {
		refuse(
			ctx,
			itemIndex,
			`The file type of "${binary.fileName ?? property}" (${binary.mimeType || 'unknown MIME type'}) cannot be uploaded; accepted are pdf, txt and docx`,
			'Convert the file, or choose the document type explicitly.',
		);
	}
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	if (buffer.length === 0) refuse(ctx, itemIndex, `The file in binary property "${property}" is empty (0 bytes)`);
	if (buffer.length > MAX_FILE_BYTES) {
		refuse(ctx, itemIndex, `The file in binary property "${property}" is ${megabytes(buffer.length)}; the service accepts at most 20 MB`);
	}
	const mimeType = binary.mimeType && binary.mimeType !== 'application/octet-stream' ? binary.mimeType : MIME_OF[fileType];
	return {
		blob: new Blob([buffer], { type: mimeType }),
		fileName: binary.fileName ?? `${property}.${fileType}`,
		fileType,
	};
}
