import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * The one way to name the input item in an error: n8n's error types kept as
 * they are (a NodeApiError already carries the service's answer), anything
 * else wrapped, and the item index set where it is missing.
 */
export function itemError(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		// returns the same error: the service's answer is already mapped
		return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	}
	const failure =
		error instanceof NodeOperationError
			? error
			: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	if (failure.context.itemIndex === undefined) failure.context.itemIndex = itemIndex;
	return failure;
}
