import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { FOLDER, createFields, createGroup } from '../groups';

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['create'] } },
	createFields(FOLDER),
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await createGroup(this, itemIndex, FOLDER);
}
