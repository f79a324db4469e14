/**
 * n8n's `prepareBinaryData` takes a Buffer or a Readable (the recording is
 * streamed into it). The tests of the recording wrap the test contexts'
 * stand-in (which reads a stream to its end, like n8n's binary data service
 * does, failing when the stream fails) to record each call: a stream or not,
 * the file name and type.
 */
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';
import type { Readable } from 'stream';

interface BinaryCall {
	stream: boolean;
	fileName?: string;
	mimeType?: string;
}

type PrepareBinaryData = (
	data: Buffer | Readable,
	fileName?: string,
	mimeType?: string,
) => Promise<IBinaryData>;

/** Makes the context's `prepareBinaryData` record its calls (returns the calls it received). */
export function streamingBinary(context: { helpers: unknown }) {
	const calls: BinaryCall[] = [];
	const helpers = context.helpers as { prepareBinaryData: PrepareBinaryData };
	const prepare = helpers.prepareBinaryData;
	helpers.prepareBinaryData = async (data, fileName, mimeType) => {
		calls.push({ stream: !Buffer.isBuffer(data), fileName, mimeType });
		return await prepare(data, fileName, mimeType);
	};
	return calls;
}

/** The item holds call 9001's recording ("ID3-audio", audio/mpeg), streamed into n8n in one call. */
export function expectStreamedRecording(item: INodeExecutionData, calls: BinaryCall[]) {
	expect(item.binary?.data).toMatchObject({
		data: Buffer.from('ID3-audio').toString('base64'),
		mimeType: 'audio/mpeg',
		fileName: '9001.mp3',
	});
	expect(calls).toEqual([{ stream: true, fileName: '9001.mp3', mimeType: 'audio/mpeg' }]);
}
