import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { SIP_TRUNKS_PATH, sipTrunkId, sipTrunkLocator } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['sipTrunk'], operation: ['delete'] } },
	[
		{
			...sipTrunkLocator,
			description:
				'The SIP trunk to delete, at once and irreversibly; assistants using it lose it. Pick it from the list or give its numeric ID.',
		},
	] as INodeProperties[],
);

/**
 * A SIP trunk is deleted through the phone number release endpoint. That
 * endpoint also releases bought numbers, so the ID is first read as a SIP
 * trunk: an ID of another kind of number fails with "SIP trunk not found."
 * instead of releasing a number.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = sipTrunkId(this, itemIndex);
	await apiRequest.call(this, 'GET', `${SIP_TRUNKS_PATH}/${id}`, { itemIndex });
	const answer = await apiRequest.call(this, 'DELETE', `/api/user/phone-numbers/${id}`, {
		itemIndex,
	});
	return { deleted: true, id, ...messageOf(answer) };
}
