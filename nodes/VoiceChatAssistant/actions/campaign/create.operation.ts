import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { createOnce } from '../../transport/createOnce';
import { assistantLocator, sortedByLabel } from '../../descriptions';
import { readLocatorId } from '../parameters';
import {
	checkEnum,
	checkMaxLength,
	checkNumberRange,
	checkRequired,
	checkTimezone,
} from '../validation';
import { WEEKDAYS, toHourMinute, toIdList } from './shared';
import { requiredNameField } from '../commonFields';

const title = (day: string) => day.charAt(0).toUpperCase() + day.slice(1);

const additionalFields: INodeProperties[] = [
	{
		displayName: 'Allowed Days',
		name: 'allowed_days',
		type: 'multiOptions',
		default: [],
		description: 'Weekdays on which the campaign may call. Default: every day.',
		options: WEEKDAYS.map((day) => ({ name: title(day), value: day })),
	},
	{
		displayName: 'Allowed Hours End',
		name: 'allowed_hours_end_time',
		type: 'string',
		default: '23:59',
		placeholder: 'e.g. 18:00',
		description:
			'Latest time of day a call may start, HH:MM from 00:00 to 23:59, in the campaign timezone. Default: 23:59.',
	},
	{
		displayName: 'Allowed Hours Start',
		name: 'allowed_hours_start_time',
		type: 'string',
		default: '00:00',
		placeholder: 'e.g. 09:00',
		description:
			'Earliest time of day a call may start, HH:MM from 00:00 to 23:59, in the campaign timezone. Default: 00:00.',
	},
	{
		displayName: 'Goal Completion Variable',
		name: 'goal_completion_variable',
		type: 'string',
		default: '',
		placeholder: 'e.g. interested',
		description:
			"A boolean variable of the assistant's post-call schema that marks a lead's goal as reached, at most 255 characters",
	},
	{
		displayName: 'Mark Complete When No Leads',
		name: 'mark_complete_when_no_leads',
		type: 'boolean',
		default: true,
		description: 'Whether the campaign is marked complete once no leads are left to call',
	},
	{
		displayName: 'Max Calls in Parallel',
		name: 'max_calls_in_parallel',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10 },
		default: 3,
		description:
			"Calls the campaign makes at the same time, 1-10 (the plan's limit may be lower). Default: 3.",
	},
	{
		displayName: 'Max Retries',
		name: 'max_retries',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 5 },
		default: 3,
		description: 'How often a lead that was not reached is called again, 1-5. Default: 3.',
	},
	{
		displayName: 'Phone Number Names or IDs',
		name: 'phone_number_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getAssignablePhoneNumbers' },
		default: [],
		description:
			'Numbers of the account the campaign calls from. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Retry Interval (Minutes)',
		name: 'retry_interval',
		type: 'number',
		typeOptions: { minValue: 10, maxValue: 4320 },
		default: 60,
		description: 'Minutes between two attempts on the same lead, 10-4320 (3 days). Default: 60.',
	},
	{
		displayName: 'Retry on Goal Incomplete',
		name: 'retry_on_goal_incomplete',
		type: 'boolean',
		default: false,
		description: 'Whether a lead is called again when the goal completion variable is not true',
	},
	{
		displayName: 'Retry on Voicemail',
		name: 'retry_on_voicemail',
		type: 'boolean',
		default: false,
		description: 'Whether a lead is called again when the call reached a voicemail',
	},
	{
		displayName: 'Timezone',
		name: 'timezone',
		type: 'string',
		default: '',
		placeholder: 'e.g. Europe/Berlin',
		description:
			'Time zone of the allowed hours, a region/city name such as Europe/Berlin. Default: the account timezone.',
	},
];

const properties: INodeProperties[] = [
	requiredNameField('campaign'),
	{
		...assistantLocator,
		description:
			'The OUTBOUND assistant that makes the calls (an inbound assistant is refused by the service). Pick it from the list or give its numeric ID.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: sortedByLabel(additionalFields),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['create'] } },
	properties,
);

/** The request body of the additional fields, each checked against the service's rules. */
function campaignSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
): IDataObject {
	const body: IDataObject = {};
	if (fields.timezone !== undefined && String(fields.timezone).trim() !== '')
		body.timezone = checkTimezone(ctx, itemIndex, fields.timezone);
	const numbers: Array<[string, string, number, number]> = [
		['max_calls_in_parallel', 'Max Calls in Parallel', 1, 10],
		['max_retries', 'Max Retries', 1, 5],
		['retry_interval', 'Retry Interval (Minutes)', 10, 4320],
	];
	for (const [key, label, min, max] of numbers) {
		if (fields[key] === undefined || fields[key] === '' || fields[key] === null) continue;
		checkNumberRange(ctx, itemIndex, label, fields[key], min, max, { integer: true });
		body[key] = Number(fields[key]);
	}
	for (const [key, label] of [
		['allowed_hours_start_time', 'Allowed Hours Start'],
		['allowed_hours_end_time', 'Allowed Hours End'],
	] as const) {
		if (fields[key] === undefined || String(fields[key]).trim() === '') continue;
		body[key] = toHourMinute(ctx, itemIndex, label, fields[key]);
	}
	if (fields.allowed_days !== undefined) {
		const days = (
			Array.isArray(fields.allowed_days)
				? fields.allowed_days
				: String(fields.allowed_days).split(',')
		)
			.map((day) => String(day).trim().toLowerCase())
			.filter(Boolean);
		for (const day of days) checkEnum(ctx, itemIndex, 'Allowed Days', day, WEEKDAYS);
		if (days.length) body.allowed_days = [...new Set(days)];
	}
	for (const key of [
		'retry_on_voicemail',
		'retry_on_goal_incomplete',
		'mark_complete_when_no_leads',
	]) {
		if (fields[key] !== undefined) body[key] = Boolean(fields[key]);
	}
	if (fields.goal_completion_variable !== undefined) {
		const variable = String(fields.goal_completion_variable).trim();
		checkMaxLength(ctx, itemIndex, 'Goal Completion Variable', variable, 255);
		if (variable) body.goal_completion_variable = variable;
	}
	if (fields.phone_number_ids !== undefined) {
		const ids = toIdList(ctx, itemIndex, 'Phone Number Names or IDs', fields.phone_number_ids);
		if (ids.length) body.phone_number_ids = ids;
	}
	return body;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const name = String(this.getNodeParameter('name', itemIndex, '')).trim();
	checkRequired(this, itemIndex, 'Name', name);
	checkMaxLength(this, itemIndex, 'Name', name, 255);
	const assistantId = readLocatorId(this, itemIndex, 'assistantId', 'Assistant');
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		name,
		assistant_id: assistantId,
		...campaignSettings(this, itemIndex, fields),
	};
	return await createOnce(this, itemIndex, {
		path: '/api/user/campaigns',
		body,
		noun: 'campaign',
		policy: {
			kind: 'findCreated',
			candidates: async () => asList(await apiRequest.call(this, 'GET', '/api/user/campaigns')),
			matches: (candidate) => candidate.name === body.name,
		},
	});
}
