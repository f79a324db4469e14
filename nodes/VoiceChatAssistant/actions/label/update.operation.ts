import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LABEL, updateFields, updateGroup } from '../groups';

export const description = updateDisplayOptions(
	{ show: { resource: ['label'], operation: ['update'] } },
	updateFields(LABEL),
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await updateGroup(this, itemIndex, LABEL);
}
