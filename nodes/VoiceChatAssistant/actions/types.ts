import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { InFlightSlots } from '../transport';

/** Output items that carry more than JSON (binary data), returned by an operation as they are. */
export class OutputItems {
	constructor(readonly items: INodeExecutionData[]) {}
}

/**
 * One operation: its fields (with their display options) and what it does
 * for one input item. It returns the JSON of the output items for that input;
 * the router pairs them with the input item.
 */
export interface OperationModule {
	description: INodeProperties[];
	/** `slots`: the node run's in-flight slots, given to `parallel` operations for their requests. */
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		slots?: InFlightSlots,
	): Promise<IDataObject | IDataObject[] | OutputItems>;
	/** Whether items may run several at a time ("Requests in Flight"): many items, one request each. */
	parallel?: boolean;
	/** Simplify: the router adds the toggle (on by default) and maps each output record with it. */
	simplify?: Simplify;
}

/** What Simplify keeps of a record (n8n's convention for responses with more than ten fields). */
export interface Simplify {
	/** The record with the fields that matter. */
	record: (record: IDataObject) => IDataObject;
	/** Those fields, as the toggle's description names them. */
	fields: string;
}

export interface ResourceModule {
	/** The operation picker of the resource followed by every operation's fields. */
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}
