import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import type { InFlightSlots } from '../../transport';
import { getClock } from '../../transport/clock';
import type { LookedUp } from '../../transport/createOnce';
import { credentialSettings } from '../../transport/credentials';
import { leadDifferences } from './shared';
import type { LeadContent } from './shared';

/**
 * Whether a stored lead is the one an attempt of Lead → Create stored although
 * its answer was lost. Only a lead with the data sent (variables and secondary
 * contacts) that was created after the attempt was sent can be; any other lead
 * with the phone number was there before, and the attempt was refused as a
 * duplicate.
 *
 * The lead's `created_at` (`YYYY-MM-DD HH:MM:SS`) carries no time zone: it is
 * in the service's zone, which SPEC does not name. Each lead this process
 * creates with a credential tells that zone (its `created_at` against the
 * time the create was sent and answered); until then every zone a lead can be
 * in (whole quarter hours from UTC-12:00 to UTC+14:00) is tried.
 */

/** The margin for n8n's clock and the service's disagreeing (and for `created_at`'s whole seconds). */
export const CLOCK_SKEW_MS = 60_000;

const QUARTER_HOUR_MS = 15 * 60_000;
/** Offsets of time zones from UTC: quarter hours from -12:00 to +14:00. */
const OFFSETS = Array.from({ length: 26 * 4 + 1 }, (_, n) => (n - 12 * 4) * QUARTER_HOUR_MS);

/** The service's zone (offset from UTC in ms) per credential, learned from leads this process created. */
const zones = new Map<string, number>();

/** Forgets the learned zones (tests). */
export function forgetLeadZones() {
	zones.clear();
}

const ZONELESS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?$/;

/** A lead's `created_at`: its digits read as UTC (`zoned` when the text names its zone), else undefined. */
function createdAt(lead: IDataObject): { ms: number; zoned: boolean } | undefined {
	const text = typeof lead.created_at === 'string' ? lead.created_at.trim() : '';
	const zoneless = ZONELESS.exec(text);
	const ms = zoneless
		? Date.parse(`${zoneless[1]}T${zoneless[2]}Z`)
		: /(Z|[+-]\d{2}:?\d{2})$/i.test(text)
			? Date.parse(text)
			: NaN;
	return Number.isNaN(ms) ? undefined : { ms, zoned: !zoneless };
}

/** Offsets under which `created_at` falls between `from` and `to` (epoch ms), each widened by the margin. */
function offsetsWithin(lead: IDataObject, offsets: number[], from: number, to: number): number[] {
	const at = createdAt(lead);
	if (!at) return [];
	// `created_at` drops the fraction of its second
	return (at.zoned ? [0] : offsets).filter(
		(offset) =>
			at.ms - offset + 999 >= from - CLOCK_SKEW_MS && at.ms - offset <= to + CLOCK_SKEW_MS,
	);
}

async function zoneKey(ctx: IExecuteFunctions): Promise<string | undefined> {
	return await credentialSettings(ctx).then(
		(settings) => settings.limiterKey,
		() => undefined,
	);
}

/** Learns the service's zone from a lead created by a request sent at `sent` and answered at `answered`. */
export async function learnZone(
	ctx: IExecuteFunctions,
	lead: IDataObject,
	sent: number,
	answered: number,
) {
	const fits = offsetsWithin(lead, OFFSETS, sent, answered);
	const key = fits.length === 1 ? await zoneKey(ctx) : undefined;
	if (key !== undefined) zones.set(key, fits[0]);
}

/**
 * Of the stored leads with the phone number, the one an attempt sent at
 * `started` (epoch ms) can have stored: the data sent, created after that
 * (less the margin). Undefined when there is none.
 */
export async function ownLead(
	ctx: IExecuteFunctions,
	stored: IDataObject[],
	sent: LeadContent,
	started: number,
	now: number,
): Promise<IDataObject | undefined> {
	const key = await zoneKey(ctx);
	const zone = key === undefined ? undefined : zones.get(key);
	const offsets = zone === undefined ? OFFSETS : [zone];
	return stored.find(
		(lead) =>
			leadDifferences(lead, sent).length === 0 &&
			offsetsWithin(lead, offsets, started, now).length > 0,
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
	const own = await ownLead(ctx, stored, sent, started, getClock().now());
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
	const own = await ownLead(ctx, stored, sent, started, getClock().now());
	if (own) return { own };
	const ids = stored.map((lead) => String(lead.id)).join(', ');
	return {
		taken: new StoredBefore(
			`Campaign ${campaignId} already has a lead with the phone number ${phoneNumber} (lead ${ids}); this item's create got no answer, and that lead is not its own (stored before the create was sent, or with other data)`,
		),
	};
}

/** The look-up after a lost answer found the phone number taken before the attempt: a duplicate. */
export class StoredBefore extends Error {}
