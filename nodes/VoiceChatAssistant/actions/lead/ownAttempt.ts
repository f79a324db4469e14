import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import type { InFlightSlots } from '../../transport';
import { getClock } from '../../transport/clock';
import type { LookedUp } from '../../transport/createOnce';
import { serviceTime } from '../../transport/serviceTime';
import { leadDifferences } from './shared';
import type { LeadContent } from './shared';

/**
 * Whether a stored lead is the one an attempt of Lead → Create stored although
 * its answer was lost. Only a lead with the data sent (variables and secondary
 * contacts) that was created after the attempt was sent can be; any other lead
 * with the phone number was there before, and the attempt was refused as a
 * duplicate.
 *
 * "Created after the attempt" is read from what the service's answers carry,
 * with no guess at its time zone and no memory beyond the node run:
 * - a `created_at` that names its zone is compared with the time the attempt
 *   was sent (a minute's margin for the two clocks);
 * - SPEC's `created_at` (`YYYY-MM-DD HH:MM:SS`) names no zone, and a zone-less
 *   time an hour or fourteen hours earlier reads like the attempt's own in
 *   another zone. Lead IDs grow (SPEC: integer IDs the service assigns): a
 *   lead whose ID is above that of a lead this node run created before the
 *   attempt was sent was created after that one, so after this run began
 *   sending. A lead with no such lead to compare with (the run's first create)
 *   is not proven the attempt's: it goes through On Duplicate.
 */

/** The margin for n8n's clock and the service's disagreeing (and for `created_at`'s whole seconds). */
export const CLOCK_SKEW_MS = 60_000;

/** Leads this node run created, in the order their answers arrived: when, and the highest ID so far. */
interface Created {
	answeredAt: number[];
	highestId: number[];
}

/** Per node run (its context object): released with the run, never shared with another. */
const createdByRun = new WeakMap<object, Created>();

/** Notes a lead this node run created (its answer arrived at `answeredAt`, epoch ms). */
export function noteCreated(ctx: IExecuteFunctions, lead: IDataObject, answeredAt: number) {
	const id = Number(lead.id);
	if (!Number.isSafeInteger(id)) return;
	const created = createdByRun.get(ctx) ?? { answeredAt: [], highestId: [] };
	createdByRun.set(ctx, created);
	const highest = Math.max(id, created.highestId[created.highestId.length - 1] ?? -Infinity);
	created.answeredAt.push(answeredAt);
	created.highestId.push(highest);
}

/** The highest ID of the leads this node run created whose answers arrived by `sent` (the same millisecond counts). */
function highestIdBefore(ctx: IExecuteFunctions, sent: number): number | undefined {
	const created = createdByRun.get(ctx);
	if (!created) return undefined;
	let found: number | undefined;
	for (let n = 0; n < created.answeredAt.length && created.answeredAt[n] <= sent; n++)
		found = created.highestId[n];
	return found;
}

/** Whether the lead was created after `started` (epoch ms), as its answer proves; false when unproven. */
function createdAfter(ctx: IExecuteFunctions, lead: IDataObject, started: number, now: number) {
	// only a time that names its zone proves it
	const at = serviceTime(lead.created_at);
	if (at !== undefined) {
		// `created_at` may drop the fraction of its second
		return at + 999 >= started - CLOCK_SKEW_MS && at <= now + CLOCK_SKEW_MS;
	}
	const id = Number(lead.id);
	const before = highestIdBefore(ctx, started);
	return Number.isSafeInteger(id) && before !== undefined && id > before;
}

/**
 * Of the stored leads with the phone number, the one an attempt sent at
 * `started` (epoch ms) stored: the data sent, created after that. Undefined
 * when none is proven so.
 */
export function ownLead(
	ctx: IExecuteFunctions,
	stored: IDataObject[],
	sent: LeadContent,
	started: number,
	now: number,
): IDataObject | undefined {
	return stored.find(
		(lead) => leadDifferences(lead, sent).length === 0 && createdAfter(ctx, lead, started, now),
	);
}

/**
 * The leads of the campaign with exactly this phone number, read with Lead →
 * Get Many's phone filter (one request: the filter matches parts of numbers, so
 * the exact ones are picked from the first page).
 */
export async function readStored(
	ctx: IExecuteFunctions,
	itemIndex: number,
	phoneNumber: string,
	campaignId: number,
	slots?: InFlightSlots,
): Promise<IDataObject[]> {
	const leads = (await apiRequestAllItems.call(
		ctx,
		'/api/user/leads',
		{ phone_number: phoneNumber, campaign_id: campaignId },
		10,
		itemIndex,
		slots,
	)) as IDataObject[];
	return leads.filter(
		(entry) =>
			entry.phone_number === phoneNumber &&
			(entry.campaign_id === undefined || Number(entry.campaign_id) === campaignId),
	);
}

/**
 * The stored leads of a duplicate, read as `readStored` does; when reading them
 * fails, the item fails: `failed` says what the reading was for (the reading's
 * error follows it), `description` what to do.
 */
export async function readStoredOrFail(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ phoneNumber, campaignId, slots }: Pick<Duplicate, 'phoneNumber' | 'campaignId' | 'slots'>,
	failed: string,
	description: string,
): Promise<IDataObject[]> {
	try {
		return await readStored(ctx, itemIndex, phoneNumber, campaignId, slots);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), `${failed}: ${(error as Error).message}`, {
			itemIndex,
			description,
		});
	}
}

/** The service's "duplicate" response to an item: its phone number in its campaign, and what the item sent. */
export interface Duplicate {
	/** The service's answer, or what the look-up after a lost answer found (StoredBefore). */
	response: Error;
	phoneNumber: string;
	campaignId: number;
	sent: LeadContent;
	/** The in-flight slots of the node run, for reading the stored lead back. */
	slots?: InFlightSlots;
}

/**
 * The service refused a resend as a duplicate after an attempt whose answer was
 * lost: the stored lead is that attempt's when it can have stored it
 * (`ownLead`); otherwise the duplicate is a real one, thrown for On Duplicate.
 */
export async function storedEarlier(
	ctx: IExecuteFunctions,
	itemIndex: number,
	duplicate: Duplicate,
	started: number,
): Promise<IDataObject> {
	const { response, phoneNumber, campaignId, sent } = duplicate;
	const stored = await readStoredOrFail(
		ctx,
		itemIndex,
		duplicate,
		`Campaign ${campaignId} has a lead with the phone number ${phoneNumber}, maybe stored by this item's own attempt (its answer was lost), and reading it back failed`,
		`Look for ${phoneNumber} with Lead → Get Many (phone filter) before running the item again.`,
	);
	const own = ownLead(ctx, stored, sent, started, getClock().now());
	if (own) return own;
	throw response;
}

/**
 * The look-up after an attempt whose answer was lost: the lead that attempt
 * stored, the stored lead it cannot have stored (the phone number was taken
 * before: the attempt was refused as a duplicate), or none.
 */
export async function lookUpAfterLostAnswer(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ phoneNumber, campaignId, sent, slots }: Omit<Duplicate, 'response'>,
	started: number,
): Promise<LookedUp | undefined> {
	const stored = await readStored(ctx, itemIndex, phoneNumber, campaignId, slots);
	if (!stored.length) return undefined;
	const own = ownLead(ctx, stored, sent, started, getClock().now());
	if (own) return { own };
	const ids = stored.map((lead) => String(lead.id)).join(', ');
	return {
		taken: new StoredBefore(
			`Campaign ${campaignId} already has a lead with the phone number ${phoneNumber} (lead ${ids}); this item's create got no answer, and that lead is not proven its own (stored before the create was sent, with other data, or the run's first create, with no lead of this run to compare its ID with)`,
		),
	};
}

/** The look-up after a lost answer found the phone number taken before the attempt: a duplicate. */
export class StoredBefore extends Error {}
