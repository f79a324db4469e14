import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, asList } from '../../VoiceChatAssistant/transport';
import type { EventRun, PollEvent } from './event';
import { emit } from './event';
import { readCampaignId } from './leadStatusChanged';

/**
 * Campaign Status Changed: a campaign started, stopped or completed. The
 * campaign list is one request (the account's campaigns, a plan-limited
 * number), so a poll costs one request. The state keeps each campaign's last
 * status; a change is emitted when the campaign's status moves into another
 * of the three groups below.
 */

export const CAMPAIGN_STATUS_CHANGED = 'campaignStatusChanged';

export const CAMPAIGN_CHANGES = ['started', 'stopped', 'completed'];

/** The campaign statuses of each change (the service answers `in-progress` on start, `stopped` on stop). */
const GROUPS: Record<string, string[]> = {
	started: ['in-progress', 'active', 'running'],
	stopped: ['stopped', 'paused'],
	completed: ['completed', 'finished'],
};

export type CampaignStatuses = Record<string, string>;

const PATH = '/api/user/campaigns';

/** The change a campaign status stands for, or undefined (e.g. `draft`). */
export function changeOf(status: unknown): string | undefined {
	return CAMPAIGN_CHANGES.find((change) => GROUPS[change].includes(String(status)));
}

function readChanges(ctx: IPollFunctions): string[] {
	const changes = ctx.getNodeParameter('campaignChanges', CAMPAIGN_CHANGES) as unknown;
	if (!Array.isArray(changes) || changes.length === 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			'Changes must name at least one of started, stopped, completed',
		);
	}
	for (const change of changes) {
		if (!CAMPAIGN_CHANGES.includes(String(change))) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Changes must be among ${CAMPAIGN_CHANGES.join(', ')}, got "${String(change)}"`,
			);
		}
	}
	return (changes as string[]).slice().sort();
}

export const campaignStatusChanged: PollEvent = {
	read(ctx: IPollFunctions): EventRun {
		const campaignId = readCampaignId(ctx);
		const changes = readChanges(ctx);
		const read = async () =>
			asList(await apiRequest.call(ctx, 'GET', PATH)).filter(
				(campaign) => campaignId === undefined || Number(campaign.id) === campaignId,
			);
		const statuses = (campaigns: IDataObject[]): CampaignStatuses =>
			Object.fromEntries(campaigns.map((c) => [String(c.id), String(c.status)]));
		return {
			key: { campaignId: campaignId ?? null, changes },
			nothingYet: campaignId
				? 'This campaign has not started, stopped or completed: change its status, then fetch again'
				: 'No campaign has started, stopped or completed: change the status of one, then fetch again',
			async test() {
				const found = (await read())
					.filter((campaign) => changes.includes(changeOf(campaign.status) ?? ''))
					.pop();
				return found
					? [
							ctx.helpers.returnJsonArray([
								{ ...found, previous_status: null, change: changeOf(found.status) },
							]),
						]
					: undefined;
			},
			started: (state) => !!state.campaigns,
			async start(state) {
				state.campaigns = statuses(await read());
			},
			async poll(state) {
				const known = state.campaigns as CampaignStatuses;
				const campaigns = await read();
				const changed: IDataObject[] = [];
				for (const campaign of campaigns) {
					const before = known[String(campaign.id)];
					if (before === String(campaign.status)) continue;
					const change = changeOf(campaign.status);
					// a campaign that moves between two statuses of the same group did not change
					if (!change || change === changeOf(before) || !changes.includes(change)) continue;
					changed.push({ ...campaign, previous_status: before ?? null, change });
				}
				// campaigns no longer listed (deleted) leave the state with the list
				state.campaigns = statuses(campaigns);
				return emit(ctx, changed);
			},
		};
	},
};
