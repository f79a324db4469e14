/** The context the editor's pickers (list search and load options) run in. */
import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { createContext } from '../../helpers/context';

/** A load-options context whose current node parameters are `current`. */
export function pickerContext(current: IDataObject = {}) {
	const { context, sent } = createContext({ parameters: {}, currentParameters: current });
	return { ctx: context as unknown as ILoadOptionsFunctions, sent };
}
