import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toId } from '../validation';

/** The Call ID of Get and Delete, with the operation's description. */
export function callIdField(description: string): INodeProperties {
	return {
		displayName: 'Call ID',
		name: 'callId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1234',
		description,
	};
}

export function callId(ctx: IExecuteFunctions, itemIndex: number): number {
	return toId(ctx, itemIndex, 'Call ID', ctx.getNodeParameter('callId', itemIndex));
}
