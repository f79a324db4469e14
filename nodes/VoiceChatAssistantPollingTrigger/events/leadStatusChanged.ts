import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LEAD_STATUSES } from '../../VoiceChatAssistant/descriptions/leadStatuses';
import { readPage } from '../pages';
import type { EventRun, PollEvent } from './event';
import { emit, locatorText, positiveId } from './event';
import type { LeadSnapshot, ScanResult } from './leadScan';
import { leadLimits, scan } from './leadScan';

export type { LeadSnapshot } from './leadScan';
export { MAX_TRACKED_LEADS } from './leadScan';

/**
 * Lead Status Changed. The lead list offers no "changed since" filter and no
 * ordering by update time (its filters are status, campaign, phone number and
 * the creation date; `updated_at` is a local time of the service in an
 * unstated time zone), so the trigger keeps a snapshot of every lead's status
 * (leadStatuses.ts: about half a byte a lead) and compares the list with it.
 * Any lead can change again: a final lead can be set back to `created` and
 * called anew, so every lead is watched, not only those still to call.
 *
 * The list is read in rounds (leadScan.ts): each poll reads at most
 * MAX_REQUESTS_PER_POLL pages of 100 leads from where the last poll stopped,
 * and the next round starts at the top again. A lead whose status differs
 * from the snapshot is emitted once with its previous status. Cost: one
 * request per 100 leads, at most MAX_REQUESTS_PER_POLL per poll: a campaign
 * of 100,000 leads is a round of 100 polls, and a change shows within that.
 * The list's order is not promised: newest first, positions are counted from
 * the end (new leads at the top do not move them); oldest first, page numbers
 * are kept (new leads come at the end).
 *
 * The first round records the leads it meets for the first time without
 * emitting them (they may have had that status before activation), but each
 * of its polls first reads the leads in a call (`status=processing`): a lead
 * called after activation is known before its call ends, and the status it
 * ends with is emitted, with `previous_status` "processing".
 *
 * Leads past MAX_TRACKED_LEADS are reported to the workflow: an item with
 * `unwatched_leads` (and a warning in the log).
 */

export const LEAD_STATUS_CHANGED = 'leadStatusChanged';

/** Statuses after which a campaign calls the lead no more: the default of the filter. */
export const FINAL_LEAD_STATUSES = ['completed', 'reached-max-retries', 'blacklisted'];

const PATH = '/api/user/leads';

const LOG = 'Voice Chat Assistant Polling Trigger:';

export const LEAD_STATUS_OPTIONS = LEAD_STATUSES.map((status) => ({
	name: status.charAt(0).toUpperCase() + status.slice(1).replace(/-/g, ' '),
	value: status,
}));

/** The Campaign field (optional): its ID, or undefined for all campaigns. */
export function readCampaignId(ctx: IPollFunctions): number | undefined {
	const campaign = locatorText(ctx.getNodeParameter('campaignId', ''));
	return campaign ? positiveId(ctx, 'Campaign', campaign) : undefined;
}

function readStatuses(ctx: IPollFunctions): string[] {
	const statuses = ctx.getNodeParameter('leadStatuses', FINAL_LEAD_STATUSES) as unknown;
	if (!Array.isArray(statuses)) {
		throw new NodeOperationError(ctx.getNode(), 'Statuses must be a list of lead statuses');
	}
	for (const status of statuses) {
		if (!(LEAD_STATUSES as readonly string[]).includes(String(status))) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Statuses must be among ${LEAD_STATUSES.join(', ')}, got "${String(status)}"`,
			);
		}
	}
	return (statuses as string[]).slice().sort();
}

/**
 * Leads the snapshot cannot hold are logged and reported to the workflow: one
 * item (`unwatched_leads`) when the old leads past the limit are first met,
 * and one for every poll that meets new leads past it.
 */
function reportUnwatched(
	ctx: IPollFunctions,
	snapshot: LeadSnapshot,
	{ unwatched, tracked }: ScanResult,
): IDataObject[] {
	const items: IDataObject[] = [];
	const list = (ids: number[]) =>
		ids.length > 50 ? `${ids.slice(0, 50).join(', ')} and ${ids.length - 50} more` : ids.join(', ');
	const report = (ids: number[], which: string) => {
		const message = `The trigger watches at most ${leadLimits.tracked} leads: ${which} ${list(ids)} are not watched, their status changes are not emitted. Choose a Campaign to watch fewer leads.`;
		ctx.logger.warn(`${LOG} ${message}`);
		items.push({
			unwatched_leads: ids.slice(0, 1000),
			unwatched_count: ids.length,
			limit: leadLimits.tracked,
			message,
		});
	};
	if (unwatched.fresh.length) report(unwatched.fresh, 'new leads');
	if (unwatched.old.length && !snapshot.full) report(unwatched.old, 'leads');
	if (unwatched.old.length) snapshot.full = true;
	else if (tracked < leadLimits.tracked) delete snapshot.full;
	return items;
}

/** Lead Status Changed: a lead of the campaign (or of any campaign) moved to a watched status. */
export const leadStatusChanged: PollEvent = {
	option: {
		name: 'Lead Status Changed',
		action: 'On lead status changed',
		description:
			'A lead of a campaign moved to one of the chosen statuses (e.g. completed); one item per change with the lead, previous_status and status. One request per 100 leads, at most 10 per poll.',
	},
	subtitle: 'Lead status changed',
	stateKey: 'leads',
	fields: [
		{
			displayName: 'Statuses',
			name: 'leadStatuses',
			type: 'multiOptions',
			default: ['completed', 'reached-max-retries', 'blacklisted'],
			description:
				'Emit a lead when it moves to one of these statuses (leave empty for every change). The trigger watches up to 200,000 leads; a campaign of N leads is read in N/1000 polls (10 requests of 100 leads each), so a change can take that many polls to show.',
			options: LEAD_STATUS_OPTIONS,
			displayOptions: { show: { event: [LEAD_STATUS_CHANGED] } },
		},
	],
	read(ctx: IPollFunctions): EventRun {
		const campaignId = readCampaignId(ctx);
		const statuses = readStatuses(ctx);
		const watched = (status: string) => statuses.length === 0 || statuses.includes(status);
		const qs: IDataObject = {};
		if (campaignId !== undefined) qs.campaign_id = campaignId;
		return {
			// the statuses only pick what is emitted: the snapshot holds every status
			key: { ...qs, statuses },
			nothingYet: 'No lead has a watched status yet: run the campaign, then fetch again',
			async test() {
				const newest = (await readPage(ctx, PATH, qs, 1)).items.find((lead) =>
					watched(String(lead.status)),
				);
				return newest
					? [ctx.helpers.returnJsonArray([{ ...newest, previous_status: null }])]
					: undefined;
			},
			started: (state) => !!state.leads,
			async start(state) {
				const snapshot: LeadSnapshot = { statuses: {}, maxId: 0, learning: true };
				// leads past the limit met here are reported when a later poll meets them
				await scan(ctx, qs, snapshot, watched);
				state.leads = snapshot;
			},
			async poll(state) {
				const snapshot = state.leads as LeadSnapshot;
				const scanned = await scan(ctx, qs, snapshot, watched);
				return emit(ctx, [...scanned.changed, ...reportUnwatched(ctx, snapshot, scanned)]);
			},
		};
	},
};
