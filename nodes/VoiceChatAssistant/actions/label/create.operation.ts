import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LABEL, createFields, createGroup } from '../groups';

export const description = updateDisplayOptions(
	{ show: { resource: ['label'], operation: ['create'] } },
	createFields(LABEL),
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await createGroup(this, itemIndex, LABEL);
}
