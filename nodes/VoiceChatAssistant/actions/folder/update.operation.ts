import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { FOLDER, updateFields, updateGroup } from '../groups';

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['update'] } },
	updateFields(FOLDER),
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await updateGroup(this, itemIndex, FOLDER);
}
