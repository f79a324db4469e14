import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LABEL, deleteFields, deleteGroup } from '../groups';

export const description = updateDisplayOptions(
	{ show: { resource: ['label'], operation: ['delete'] } },
	deleteFields(LABEL),
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await deleteGroup(this, itemIndex, LABEL);
}
