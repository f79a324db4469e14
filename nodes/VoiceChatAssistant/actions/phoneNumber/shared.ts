import type { IExecuteFunctions } from 'n8n-workflow';

import { readLocatorId } from '../parameters';

/** The ID of the phone number picked in `phoneNumberId`. */
export function phoneNumberId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, 'phoneNumberId', 'Phone Number');
}
