import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, asList } from '../../VoiceChatAssistant/transport';
import type { CampaignStatuses } from '../watches';
import type { EventRun, PollEvent } from './event';
import { emit } from './event';
import { readCampaignId } from './leadStatusChanged';
import { isStale, processId } from './process';

/**
 * Campaign Status Changed: a campaign started, stopped or completed. The
 * campaign list is one request (the account's campaigns, a plan-limited
 * number), so a poll costs one request. The state keeps each campaign's last
 * status and `updated_at`; a change is emitted when the campaign's status
 * moves into another of the three groups below.
 *
 * n8n's default poller saves the state only when a poll emits: a change seen
 * but not emitted (a stop while only "started" is watched) is lost at a
 * restart, and the next start would look like no change. So after a restart
 * (the state was written by another n8n process, process.ts) a campaign in a
 * watched group whose `updated_at` differs from the saved one changed status
 * meanwhile and came back: it is emitted with `after_restart: true`.
 */

export const CAMPAIGN_STATUS_CHANGED = 'campaignStatusChanged';

export const CAMPAIGN_CHANGES = ['started', 'stopped', 'completed'];

/** The campaign statuses of each change (the service answers `in-progress` on start, `stopped` on stop). */
const GROUPS: Record<string, string[]> = {
	started: ['in-progress', 'active', 'running'],
	stopped: ['stopped', 'paused'],
	completed: ['completed', 'finished'],
};

/** The state as saved (a plain id → status map before `updated_at` was kept). */
function known(saved: unknown): CampaignStatuses {
	const state = saved as Partial<CampaignStatuses>;
	if (state && typeof state.statuses === 'object' && state.statuses !== null) {
		return {
			statuses: state.statuses,
			updated: state.updated ?? {},
			process: String(state.process ?? ''),
		};
	}
	return { statuses: (saved ?? {}) as Record<string, string>, updated: {}, process: '' };
}

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
	option: {
		name: 'Campaign Status Changed',
		action: 'On campaign status changed',
		description:
			'A campaign started, stopped or completed (ran out of leads); one item per change. One request per poll.',
	},
	subtitle: 'Campaign status changed',
	stateKey: 'campaigns',
	fields: [
		{
			displayName: 'Changes',
			name: 'campaignChanges',
			type: 'multiOptions',
			required: true,
			default: ['started', 'stopped', 'completed'],
			description: 'Which changes of a campaign to emit',
			options: [
				{ name: 'Started', value: 'started', description: 'The campaign is now in progress' },
				{ name: 'Stopped', value: 'stopped', description: 'The campaign was stopped or paused' },
				{
					name: 'Completed',
					value: 'completed',
					description: 'The campaign completed (it ran out of leads)',
				},
			],
			displayOptions: { show: { event: [CAMPAIGN_STATUS_CHANGED] } },
		},
	],
	read(ctx: IPollFunctions): EventRun {
		const campaignId = readCampaignId(ctx);
		const changes = readChanges(ctx);
		const read = async () =>
			asList(await apiRequest.call(ctx, 'GET', PATH)).filter(
				(campaign) => campaignId === undefined || Number(campaign.id) === campaignId,
			);
		const statuses = (campaigns: IDataObject[]): CampaignStatuses => ({
			statuses: Object.fromEntries(campaigns.map((c) => [String(c.id), String(c.status)])),
			updated: Object.fromEntries(
				campaigns
					.filter((c) => typeof c.updated_at === 'string')
					.map((c) => [String(c.id), String(c.updated_at)]),
			),
			process: processId(),
		});
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
				const saved = known(state.campaigns);
				const restarted = isStale(saved.process || undefined);
				const campaigns = await read();
				const changed: IDataObject[] = [];
				for (const campaign of campaigns) {
					const id = String(campaign.id);
					const before = saved.statuses[id];
					if (before === String(campaign.status)) {
						const change = changeOf(campaign.status);
						const updated = saved.updated[id];
						if (
							restarted &&
							change &&
							changes.includes(change) &&
							updated !== undefined &&
							typeof campaign.updated_at === 'string' &&
							campaign.updated_at !== updated
						) {
							changed.push({ ...campaign, previous_status: null, change, after_restart: true });
						}
						continue;
					}
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
