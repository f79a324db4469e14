import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, isObject, messageOf, unwrap } from '../../transport';
import { readLocatorId } from '../parameters';
import { refuse, toId } from '../validation';

export const WEEKDAYS = [
	'monday',
	'tuesday',
	'wednesday',
	'thursday',
	'friday',
	'saturday',
	'sunday',
] as const;

export function campaignId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, 'campaignId', 'Campaign');
}

/**
 * A time of day for the service's `H:i` rule (00:00-23:59). Accepts `9:00`,
 * `09:00` and `09:00:00` (the form campaigns are read back in) and sends `09:00`.
 */
export function toHourMinute(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string {
	const text = String(value ?? '').trim();
	const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
	if (match) {
		const hours = Number(match[1]);
		const minutes = Number(match[2]);
		const seconds = match[3] === undefined ? 0 : Number(match[3]);
		if (hours <= 23 && minutes <= 59 && seconds <= 59) {
			return `${String(hours).padStart(2, '0')}:${match[2]}`;
		}
	}
	return refuse(
		ctx,
		itemIndex,
		`${field} must be a time of day HH:MM from 00:00 to 23:59, got "${text}"`,
		`Enter e.g. 09:00 or 17:30 in "${field}".`,
	);
}

/** Phone number IDs from a multi-select, an array expression or a comma-separated text; distinct. */
export function toIdList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): number[] {
	let raw: unknown[];
	if (Array.isArray(value)) raw = value;
	else if (value === undefined || value === null || value === '') raw = [];
	else raw = String(value).split(',');
	const ids: number[] = [];
	for (const entry of raw) {
		if (typeof entry === 'string' && entry.trim() === '') continue;
		const id = toId(ctx, itemIndex, field, entry);
		if (!ids.includes(id)) ids.push(id);
	}
	return ids;
}

/**
 * POST /api/user/campaigns/update-status. A start is sent once (not sent
 * again after an uncertain failure); a stop may be resent.
 */
export async function updateStatus(
	ctx: IExecuteFunctions,
	itemIndex: number,
	action: 'start' | 'stop',
): Promise<IDataObject> {
	const id = campaignId(ctx, itemIndex);
	const answer = await apiRequest.call(ctx, 'POST', '/api/user/campaigns/update-status', {
		body: { campaign_id: id, action },
		itemIndex,
		// a start phones the leads: never sent twice
		retry: action === 'start' ? 'sendOnce' : 'safe',
		checkBeforeRetry: `check the campaign's status with Campaign → Get`,
	});
	const data = isObject(answer) && isObject(answer.data) ? unwrap(answer) : {};
	return { campaign_id: id, ...data, ...messageOf(answer) };
}
