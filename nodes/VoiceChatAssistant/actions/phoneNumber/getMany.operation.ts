import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimit } from '../../descriptions';
import { readList } from '../limit';

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['getMany'] } },
	returnAllOrLimit,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await readList(this, itemIndex, '/api/user/phone-numbers/all');
}
