import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InFlightSlots, inFlightFor, limiterOfRun, mapInOrder } from '../transport';
import { itemError } from './itemError';
import { requestsInFlight } from './parallel';
import { operationOf } from './resources';
import { simplifyOutput } from './simplify';
import { OutputItems } from './types';

function errorJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	const description = (error as NodeApiError).description;
	if (description) json.description = description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) json.httpCode = httpCode;
	return json;
}

/**
 * Items in flight: 1 for the operations that do not declare `parallel` (those
 * that spend money or reach a person among them); for the others "Requests
 * in Flight" if set, else as many as the credential's budget and the
 * service's answer time need (read whenever an item starts).
 */
async function inFlightLimit(ctx: IExecuteFunctions, parallel: boolean): Promise<() => number> {
	if (!parallel) return () => 1;
	const setting = requestsInFlight(ctx.getNodeParameter('requestsInFlight', 0, 0));
	if (setting) return () => setting;
	const limiter = await limiterOfRun(ctx);
	return limiter ? () => inFlightFor(limiter) : () => 1;
}

/**
 * Runs the chosen operation once per input item, up to the items in flight
 * of inFlightLimit at a time. Outputs keep the input order and are paired with their
 * input; with Continue On Fail a failed item becomes an error item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = operationOf(resource, operation);
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	const slots = new InFlightSlots(await inFlightLimit(this, module.parallel === true));
	// a parallel operation gets the slots: a backoff gives its item's slot back, other items proceed meanwhile
	const slotsOfItem = module.parallel ? slots : undefined;
	// as an AI agent's tool, a failure is the tool's answer: the model reads the error and can correct
	// itself (a thrown error reaches some agent versions as an empty string, or stops the workflow)
	const asTool = this.getNode().type.endsWith('Tool');
	const continueOnFail = asTool || this.continueOnFail();

	const results: INodeExecutionData[][] = new Array(items.length);
	let firstFailure: { itemIndex: number; error: unknown } | undefined;

	const runItem = async (itemIndex: number) => {
		try {
			let data = await module.execute.call(this, itemIndex, slotsOfItem);
			if (module.simplify && this.getNodeParameter('simplify', itemIndex, false) === true) {
				data = simplifyOutput(data, module.simplify.record);
			}
			results[itemIndex] = this.helpers.constructExecutionMetaData(
				data instanceof OutputItems ? data.items : this.helpers.returnJsonArray(data),
				{
					itemData: { item: itemIndex },
				},
			);
		} catch (error) {
			if (continueOnFail) {
				results[itemIndex] = [{ json: errorJson(error as Error), pairedItem: { item: itemIndex } }];
			} else if (!firstFailure || itemIndex < firstFailure.itemIndex) {
				firstFailure = { itemIndex, error };
			}
		}
	};

	// runItem never rejects: a failure stops further items (without Continue On Fail) through the stop test
	await mapInOrder(Array.from(items.keys()), slots, runItem, () => firstFailure !== undefined);

	if (firstFailure) throw itemError(this, firstFailure.error, firstFailure.itemIndex);
	return [results.flat()];
}
