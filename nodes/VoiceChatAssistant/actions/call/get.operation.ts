import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

// PLACEHOLDER: replaced by the real operation.
export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	throw new NodeOperationError(this.getNode(), 'call:get is not implemented yet', { itemIndex });
}
