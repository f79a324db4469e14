import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, recordWithMessage } from '../../transport';
import { checkE164 } from '../validation';
import { COST, costNotice } from '../../descriptions';

const PURCHASE_COST = COST.purchaseNumber;

const properties: INodeProperties[] = [
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +14155550123',
		description: `Number to buy in E.164 form ("+", country code and number, digits only), exactly as a current "Search Available" result lists it. ${PURCHASE_COST}.`,
	},
	costNotice('purchaseNumber', 'purchaseNotice'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['purchase'] } },
	properties,
);

/** Hints for the answers where the transport's generic hint would mislead. */
function hintFor(error: NodeApiError): string | undefined {
	if (error.httpCode === '402') {
		return 'A purchase is paid with the payment method stored in the account, not with the balance: add or update it in the web app.';
	}
	if (error.httpCode === '400' && /already in use/i.test(error.message)) {
		return 'If the number now appears in "Get Many", it belongs to this account already (e.g. an earlier attempt went through): do not buy it again.';
	}
	if (error.httpCode === '400' && /not available/i.test(error.message)) {
		return 'Run "Search Available" again and buy one of the numbers it lists.';
	}
	return undefined;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const phoneNumber = String(this.getNodeParameter('phoneNumber', itemIndex, '')).trim();
	checkE164(this, itemIndex, 'Phone Number', phoneNumber);
	try {
		const answer = await apiRequest.call(this, 'POST', '/api/user/phone-numbers/purchase', {
			body: { phone_number: phoneNumber },
			itemIndex,
			// spends money: never sent twice, also after a 5xx, a timeout or a dropped connection
			retry: 'sendOnce',
			checkBeforeRetry: `look for ${phoneNumber} in Phone Number → Get Many`,
		});
		return recordWithMessage(answer);
	} catch (error) {
		if (!(error instanceof NodeApiError)) {
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
		const hint = hintFor(error);
		if (hint) error.description = hint;
		// hands back the same error (the service's answer is already mapped)
		throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
	}
}
