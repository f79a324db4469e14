import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { resources } from './resources';

function errorJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	const description = (error as NodeApiError).description;
	if (description) json.description = description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) json.httpCode = httpCode;
	return json;
}

/**
 * Runs the chosen operation once per input item. Outputs are paired with
 * their input; with Continue On Fail a failed item becomes an error item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = resources[resource]?.operations[operation];
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}

	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const data = await module.execute.call(this, itemIndex);
			output.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(data), {
					itemData: { item: itemIndex },
				}),
			);
		} catch (error) {
			if (this.continueOnFail()) {
				output.push({ json: errorJson(error as Error), pairedItem: { item: itemIndex } });
				continue;
			}
			if (error instanceof NodeApiError) {
				if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
				// returns the same error: the service's answer is already mapped
				throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
			}
			const failure = error instanceof NodeOperationError ? error : new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			if (failure.context.itemIndex === undefined) failure.context.itemIndex = itemIndex;
			throw failure;
		}
	}
	return [output];
}
