import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { FOLDER, getManyFields, listGroups } from '../groups';
import { readLimit } from '../limit';

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['getMany'] } },
	getManyFields,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await listGroups(this, itemIndex, FOLDER, readLimit(this, itemIndex));
}
