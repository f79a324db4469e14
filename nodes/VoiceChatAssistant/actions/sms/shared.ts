import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { idLocator } from '../../descriptions';
import { readLocatorId } from '../parameters';
import { checkE164, refuse } from '../validation';

/** The most characters of one SMS the service accepts. */
export const SMS_MAX_LENGTH = 300;

export const smsSenderLocator: INodeProperties = idLocator({
	displayName: 'From Number',
	name: 'fromNumberId',
	searchListMethod: 'searchSmsNumbers',
	description:
		"The account's SMS-capable number (with an active subscription) the SMS is sent from. Pick it from the list or give the number's numeric ID (not the phone number itself).",
});

export function smsSenderId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, 'fromNumberId', 'From Number');
}

/** Characters people put into phone numbers that carry no digit. */
const SEPARATORS = /[\s\-()./]/g;

/**
 * A phone number as the service should get it: separators removed and a
 * leading `00` turned into `+`. With `strict` it must then be E.164 (the docs
 * ask for E.164); otherwise only clearly invalid input is refused (letters,
 * fewer than 7 or more than 15 digits), the service normalises the rest.
 */
export function readPhone(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	label: string,
	options: { strict?: boolean } = {},
): string {
	const raw = String(ctx.getNodeParameter(parameter, itemIndex, '') ?? '').trim();
	const phone = raw.replace(SEPARATORS, '').replace(/^00/, '+');
	if (options.strict) {
		checkE164(ctx, itemIndex, label, phone);
		return phone;
	}
	if (!/^\+?[1-9]\d{6,14}$/.test(phone)) {
		refuse(
			ctx,
			itemIndex,
			`${label} must be a phone number in international form ("+", country code and number, 7-15 digits, e.g. +4915112345678), got "${raw.length > 40 ? `${raw.slice(0, 37)}...` : raw}"`,
			`Enter "${label}" with its country code, e.g. +4915112345678.`,
		);
	}
	return phone;
}
