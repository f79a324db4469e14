import type { IDataObject, IExecuteFunctions, INodeProperties, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FINAL_CALL_STATUSES } from '../../descriptions';
import { apiRequest, unwrap } from '../../transport';
import { getClock } from '../../transport/clock';
import { downloadRecording } from '../../transport/recording';
import { OutputItems } from '../types';

/** Waiting for a call's result, and its recording as binary data. */

/** Pauses between two looks at a running call: growing, then every 30 s. */
export const WAIT_STEPS_MS = [5_000, 5_000, 10_000, 10_000, 15_000, 20_000, 30_000];

export const recordingFields: INodeProperties[] = [
	{
		displayName: 'Download Recording',
		name: 'downloadRecording',
		type: 'boolean',
		default: false,
		description:
			'Whether to download the call recording (when the assistant records calls) into a binary property',
	},
	{
		displayName: 'Put Recording in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description: 'Name of the binary property that receives the recording',
		displayOptions: { show: { downloadRecording: [true] } },
	},
];

function isFinalStatus(status: unknown): boolean {
	return FINAL_CALL_STATUSES.includes(String(status));
}

export async function readCall(
	ctx: IExecuteFunctions,
	itemIndex: number,
	id: number,
): Promise<IDataObject> {
	return unwrap(await apiRequest.call(ctx, 'GET', `/api/user/calls/${id}`, { itemIndex }));
}

/**
 * Looks at the call until its status is final, pausing a little longer each
 * time, within `timeoutMs`. A call the service does not list yet (404 right
 * after it was started) is looked at again.
 */
export async function waitForResult(
	ctx: IExecuteFunctions,
	itemIndex: number,
	id: number,
	timeoutMs: number,
): Promise<IDataObject> {
	const clock = getClock();
	const deadline = clock.now() + timeoutMs;
	let lastStatus = 'initiated';
	for (let look = 0; ; look++) {
		const pause = WAIT_STEPS_MS[Math.min(look, WAIT_STEPS_MS.length - 1)];
		const left = deadline - clock.now();
		if (left <= 0) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Call ${id} did not end within ${Math.round(timeoutMs / 60_000)} minutes (last status: ${lastStatus})`,
				{
					itemIndex,
					description: `The call goes on at the service. Look it up later with Call → Get and the ID ${id}.`,
				},
			);
		}
		await clock.sleep(Math.min(pause, left));
		// a call the service does not list yet (right after it was started) is looked at again
		const call = await readCall(ctx, itemIndex, id).catch((error: NodeApiError) => {
			if (String(error.httpCode) === '404' && look < 3) return undefined;
			return Promise.reject(error);
		});
		if (!call) continue;
		lastStatus = String(call.status ?? lastStatus);
		if (isFinalStatus(call.status)) return call;
	}
}

/** The call as the output item, with its recording when asked for and available. */
export async function callOutput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	call: IDataObject,
): Promise<IDataObject | OutputItems> {
	if (!ctx.getNodeParameter('options.downloadRecording', itemIndex, false)) return call;
	const url = call.recording_url;
	if (typeof url !== 'string' || !url) return call;
	const property = String(
		ctx.getNodeParameter('options.binaryPropertyName', itemIndex, 'data') || 'data',
	);
	const binary = await downloadRecording(ctx, url, call.id);
	return new OutputItems([{ json: call, binary: { [property]: binary } }]);
}
