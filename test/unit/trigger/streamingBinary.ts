/**
 * n8n's `prepareBinaryData` takes a Buffer or a Readable (the recording is
 * streamed into it). The test contexts' stand-in takes only a Buffer, so the
 * tests of the recording replace it with one that reads a stream to its end,
 * like n8n's binary data service does, and fails when the stream fails.
 */
import type { IBinaryData } from 'n8n-workflow';
import type { Readable } from 'stream';

export async function readAll(data: Buffer | Readable): Promise<Buffer> {
	if (Buffer.isBuffer(data)) return data;
	const chunks: Buffer[] = [];
	for await (const chunk of data) chunks.push(Buffer.from(chunk as Buffer));
	return Buffer.concat(chunks);
}

/** Makes the context's `prepareBinaryData` read streams (returns the calls it received). */
export function streamingBinary(context: { helpers: unknown }) {
	const calls: Array<{ stream: boolean; fileName?: string; mimeType?: string }> = [];
	(context.helpers as { prepareBinaryData: unknown }).prepareBinaryData = async (
		data: Buffer | Readable,
		fileName?: string,
		mimeType?: string,
	): Promise<IBinaryData> => {
		calls.push({ stream: !Buffer.isBuffer(data), fileName, mimeType });
		const buffer = await readAll(data);
		return {
			data: buffer.toString('base64'),
			fileName,
			mimeType: mimeType ?? 'application/octet-stream',
			fileSize: String(buffer.length),
		} as IBinaryData;
	};
	return calls;
}
