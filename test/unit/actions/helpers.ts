/**
 * Shared setup of the operation tests: run the action node's router with the
 * given parameters and build the items it is expected to output.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { createContext } from '../../helpers/context';

/** Runs the router with `parameters` (and optional input items) and returns its first output. */
export async function run(parameters: object, items?: INodeExecutionData[]) {
	return (
		await router.call(createContext({ parameters: parameters as IDataObject, items }).context)
	)[0];
}

/** One output item paired to input item 0. */
export const item = (json: unknown) => ({ json, pairedItem: { item: 0 } });

/** One output item per record, each paired to input item 0. */
export const items = (list: unknown[]) => list.map(item);

/** A resource locator value. */
export const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });
