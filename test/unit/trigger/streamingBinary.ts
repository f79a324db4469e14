/**
 * n8n's `prepareBinaryData` takes a Buffer or a Readable (the recording is
 * streamed into it). The tests of the recording replace the test contexts'
 * stand-in with one that records each call (a stream or not, the file name
 * and type) and reads a stream to its end, like n8n's binary data service
 * does, failing when the stream fails.
 */
import type { IBinaryData } from 'n8n-workflow';
import type { Readable } from 'stream';

import { bufferOf } from '../../helpers/context';

/** Makes the context's `prepareBinaryData` read streams (returns the calls it received). */
export function streamingBinary(context: { helpers: unknown }) {
	const calls: Array<{ stream: boolean; fileName?: string; mimeType?: string }> = [];
	(context.helpers as { prepareBinaryData: unknown }).prepareBinaryData = async (
		data: Buffer | Readable,
		fileName?: string,
		mimeType?: string,
	): Promise<IBinaryData> => {
		calls.push({ stream: !Buffer.isBuffer(data), fileName, mimeType });
		const buffer = await bufferOf(data);
		return {
			data: buffer.toString('base64'),
			fileName,
			mimeType: mimeType ?? 'application/octet-stream',
			fileSize: String(buffer.length),
		} as IBinaryData;
	};
	return calls;
}
