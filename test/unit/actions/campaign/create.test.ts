import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, rl, run } from '../helpers';

const campaign = {
	id: 9,
	name: 'Autumn',
	status: 'draft',
	max_calls_in_parallel: 3,
	allowed_hours_start_time: '09:00:00',
	allowed_hours_end_time: '18:00:00',
	allowed_days: ['monday', 'friday'],
	max_retries: 3,
	retry_interval: 60,
};
const base = { resource: 'campaign', operation: 'create', name: 'Autumn', assistantId: rl('2') };

describe('Campaign → Create', () => {
	it('sends name and assistant only when no additional field is set, and outputs the campaign', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(
				'/api/user/campaigns',
				(body) => JSON.stringify(body) === JSON.stringify({ name: 'Autumn', assistant_id: 2 }),
			)
			.reply(201, { message: 'Campaign created successfully', data: campaign });
		expect(await run({ ...base, additionalFields: {} })).toEqual(items([campaign]));
		scope.done();
	});

	it('sends every additional field exactly (times as H:i, days, distinct phone number IDs)', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/campaigns', {
				name: 'Autumn',
				assistant_id: 2,
				timezone: 'Asia/Calcutta',
				max_calls_in_parallel: 10,
				max_retries: 5,
				retry_interval: 4320,
				allowed_hours_start_time: '09:00',
				allowed_hours_end_time: '17:30',
				allowed_days: ['monday', 'friday'],
				retry_on_voicemail: true,
				retry_on_goal_incomplete: false,
				mark_complete_when_no_leads: false,
				goal_completion_variable: 'interested',
				phone_number_ids: [3, 1],
			})
			.reply(201, { message: 'Campaign created successfully', data: campaign });
		const output = await run({
			...base,
			name: ' Autumn ',
			additionalFields: {
				timezone: 'Asia/Calcutta',
				max_calls_in_parallel: 10,
				max_retries: 5,
				retry_interval: 4320,
				allowed_hours_start_time: '9:00',
				allowed_hours_end_time: '17:30:00',
				allowed_days: ['monday', 'friday', 'monday'],
				retry_on_voicemail: true,
				retry_on_goal_incomplete: false,
				mark_complete_when_no_leads: false,
				goal_completion_variable: 'interested',
				phone_number_ids: '3, 1,3',
			},
		});
		expect(output).toEqual(items([campaign]));
		scope.done();
	});

	it('accepts an unwrapped campaign answer', async () => {
		nock(TEST_BASE_URL).post('/api/user/campaigns').reply(201, campaign);
		expect(await run({ ...base, additionalFields: { phone_number_ids: [4] } })).toEqual(
			items([campaign]),
		);
	});

	it.each([
		[{ name: '' }, 'Name is required'],
		[{ name: 'x'.repeat(256) }, 'Name is too long: 256 characters, at most 255'],
		[{ assistantId: rl('abc', 'id') }, 'Assistant must be a positive whole number'],
		[
			{ additionalFields: { max_calls_in_parallel: 11 } },
			'Max Calls in Parallel must be a whole number from 1 to 10, got 11',
		],
		[
			{ additionalFields: { max_calls_in_parallel: 0 } },
			'Max Calls in Parallel must be a whole number from 1 to 10',
		],
		[
			{ additionalFields: { max_retries: 6 } },
			'Max Retries must be a whole number from 1 to 5, got 6',
		],
		[
			{ additionalFields: { retry_interval: 9 } },
			'Retry Interval (Minutes) must be a whole number from 10 to 4320, got 9',
		],
		[
			{ additionalFields: { retry_interval: 4321 } },
			'Retry Interval (Minutes) must be a whole number from 10 to 4320',
		],
		[
			{ additionalFields: { allowed_hours_start_time: '24:00' } },
			'Allowed Hours Start must be a time of day HH:MM from 00:00 to 23:59, got "24:00"',
		],
		[
			{ additionalFields: { allowed_hours_end_time: '9am' } },
			'Allowed Hours End must be a time of day HH:MM from 00:00 to 23:59',
		],
		[
			{ additionalFields: { allowed_days: 'monday,funday' } },
			'Allowed Days must be one of monday, tuesday, wednesday, thursday, friday, saturday, sunday, got "funday"',
		],
		[
			{ additionalFields: { timezone: 'Berlin time' } },
			'Timezone must be a region/city time zone name',
		],
		[
			{ additionalFields: { timezone: 'UTC' } },
			'Timezone must be a region/city time zone name such as Europe/Berlin, got "UTC"',
		],
		[
			{ additionalFields: { timezone: 'Mars/Olympus_Mons' } },
			'Timezone must be a region/city time zone name such as Europe/Berlin, got "Mars/Olympus_Mons"',
		],
		[
			{ additionalFields: { goal_completion_variable: 'v'.repeat(256) } },
			'Goal Completion Variable is too long',
		],
		[
			{ additionalFields: { phone_number_ids: '1,x' } },
			'Phone Number Names or IDs must be a positive whole number, got "x"',
		],
	])('refuses %j before sending: %s', async (change, message) => {
		const scope = nock(TEST_BASE_URL).post('/api/user/campaigns').reply(201, {});
		await expect(run({ ...base, additionalFields: {}, ...change })).rejects.toThrow(message);
		expect(scope.isDone()).toBe(false);
	});

	it.each(['Europe/Kyiv', 'America/Argentina/Buenos_Aires', 'America/Ciudad_Juarez'])(
		'accepts the time zone %s',
		async (zone) => {
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/campaigns', { name: 'Autumn', assistant_id: 2, timezone: zone })
				.reply(201, { data: campaign });
			await run({ ...base, additionalFields: { timezone: zone } });
			scope.done();
		},
	);

	it('fails with the service message for an inbound assistant, the plan limit and a validation error', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/campaigns')
			.reply(404, { message: 'Assistant not found or not an outbound assistant.' });
		await expect(run({ ...base, additionalFields: {} })).rejects.toThrow(
			'Assistant not found or not an outbound assistant.',
		);
		nock(TEST_BASE_URL)
			.post('/api/user/campaigns')
			.reply(403, { message: 'You have reached the campaign limit of your plan.' });
		await expect(run({ ...base, additionalFields: {} })).rejects.toThrow(
			'campaign limit of your plan',
		);
		nock(TEST_BASE_URL)
			.post('/api/user/campaigns')
			.reply(422, {
				message: 'The given data was invalid.',
				errors: { phone_number_ids: ['The selected phone_number_ids.0 is invalid.'] },
			});
		await expect(run({ ...base, additionalFields: { phone_number_ids: [77] } })).rejects.toThrow(
			'phone_number_ids: The selected phone_number_ids.0 is invalid.',
		);
	});
});
