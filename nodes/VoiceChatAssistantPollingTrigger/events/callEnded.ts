import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import {
	CALL_TYPES,
	FINAL_CALL_STATUS_OPTIONS,
	callTypeFilter,
	campaignLocator,
} from '../../VoiceChatAssistant/descriptions';
import { downloadRecording } from '../../VoiceChatAssistant/transport/recording';
import type { CallWalk } from '../calls';
import { isFinal, pollCalls, startCallWalk } from '../calls';
import { MAX_SIDE_READS_PER_POLL, readNewest } from '../pages';
import type { EventRun, PollEvent } from './event';
import { checkType, locatorText, positiveId, readAssistantId } from './event';

export const CALL_ENDED = 'callEnded';

/** Call Ended: a call reached a final status; its recording on request. */
export const callEnded: PollEvent = {
	option: {
		name: 'Call Ended',
		action: 'On call ended',
		description:
			'A call reached a final status (completed, ended, busy, no answer, failed, ...); one item per call with transcript and variables',
	},
	subtitle: 'Call ended',
	stateKey: 'calls',
	fields: [
		{
			displayName: 'Filters',
			name: 'callFilters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			displayOptions: { show: { event: [CALL_ENDED] } },
			options: [
				{
					...campaignLocator,
					required: false,
					description: 'Only calls of this campaign',
				},
				{
					displayName: 'Download Recording',
					name: 'downloadRecording',
					type: 'boolean',
					default: false,
					description:
						'Whether to download each call recording (when the call has one) into the binary property "data" of its item',
				},
				{
					displayName: 'Statuses',
					name: 'statuses',
					type: 'multiOptions',
					default: [],
					description: 'Only calls that ended with one of these statuses (default: any)',
					options: FINAL_CALL_STATUS_OPTIONS,
				},
				callTypeFilter,
			],
		},
	],
	read(ctx: IPollFunctions): EventRun {
		const assistantId = readAssistantId(ctx);
		const filters = ctx.getNodeParameter('callFilters', {}) as IDataObject;
		const qs: IDataObject = {};
		if (assistantId !== undefined) qs.assistant_id = assistantId;
		const campaign = locatorText(filters.campaignId);
		if (campaign) qs.campaign_id = positiveId(ctx, 'Campaign', campaign);
		if (filters.type) {
			checkType(ctx, filters.type, CALL_TYPES);
			qs.type = filters.type;
		}
		const statuses = (filters.statuses as string[] | undefined) ?? [];
		const wanted = (call: IDataObject) =>
			statuses.length === 0 || statuses.includes(String(call.status));
		const output = async (calls: IDataObject[]): Promise<INodeExecutionData[][]> => {
			const items: INodeExecutionData[] = [];
			for (const call of calls) {
				const item: INodeExecutionData = { json: call };
				if (filters.downloadRecording === true && typeof call.recording_url === 'string') {
					try {
						item.binary = { data: await downloadRecording(ctx, call.recording_url, call.id) };
					} catch (error) {
						// the call is emitted all the same: a failed download must not hold the event back
						item.json = { ...call, recording_error: (error as Error).message };
					}
				}
				items.push(item);
			}
			return [items];
		};
		return {
			key: qs,
			nothingYet:
				'No ended call matches the settings yet: make or receive a call, then fetch again',
			async test() {
				const page = await readNewest(ctx, '/api/user/calls', qs, () => true);
				const newest = page.find((call) => isFinal(call) && wanted(call));
				return newest ? await output([newest]) : undefined;
			},
			started: (state) => !!state.calls?.walk,
			async start(state, now) {
				state.calls = { walk: await startCallWalk(ctx, qs, now) };
			},
			async poll(state, now) {
				const ended = (
					await pollCalls(
						ctx,
						qs,
						(state.calls as { walk: CallWalk }).walk,
						now,
						// one download per call: a poll downloads at most this many, the rest come next poll
						filters.downloadRecording === true ? MAX_SIDE_READS_PER_POLL : Infinity,
					)
				).filter(wanted);
				return ended.length ? await output(ended) : null;
			},
		};
	},
};
