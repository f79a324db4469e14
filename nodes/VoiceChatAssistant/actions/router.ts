import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PARALLEL_OPERATIONS } from './parallel';
import { resources } from './resources';

function errorJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	const description = (error as NodeApiError).description;
	if (description) json.description = description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) json.httpCode = httpCode;
	return json;
}

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		// returns the same error: the service's answer is already mapped
		return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	}
	const failure =
		error instanceof NodeOperationError ? error : new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	if (failure.context.itemIndex === undefined) failure.context.itemIndex = itemIndex;
	return failure;
}

/**
 * Runs the chosen operation once per input item, up to "Requests in Flight"
 * items at a time. Outputs keep the input order and are paired with their
 * input; with Continue On Fail a failed item becomes an error item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = resources[resource]?.operations[operation];
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	const parallel =
		PARALLEL_OPERATIONS.resource.includes(resource) && PARALLEL_OPERATIONS.operation.includes(operation)
			? Math.max(1, Math.min(20, Math.floor(Number(this.getNodeParameter('requestsInFlight', 0, 1)) || 1)))
			: 1;
	const continueOnFail = this.continueOnFail();

	const results: INodeExecutionData[][] = new Array(items.length);
	let firstFailure: { itemIndex: number; error: unknown } | undefined;
	let next = 0;

	const runItem = async (itemIndex: number) => {
		try {
			const data = await module.execute.call(this, itemIndex);
			results[itemIndex] = this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(data), {
				itemData: { item: itemIndex },
			});
		} catch (error) {
			if (continueOnFail) {
				results[itemIndex] = [{ json: errorJson(error as Error), pairedItem: { item: itemIndex } }];
			} else if (!firstFailure || itemIndex < firstFailure.itemIndex) {
				firstFailure = { itemIndex, error };
			}
		}
	};

	const worker = async () => {
		while (next < items.length && !firstFailure) {
			await runItem(next++);
		}
	};
	await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));

	if (firstFailure) throw asNodeError(this, firstFailure.error, firstFailure.itemIndex);
	return [results.flat()];
}
