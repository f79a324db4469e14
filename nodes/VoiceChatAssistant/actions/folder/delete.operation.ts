import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { FOLDER, deleteFields, deleteGroup } from '../groups';

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['delete'] } },
	deleteFields(FOLDER),
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await deleteGroup(this, itemIndex, FOLDER);
}
