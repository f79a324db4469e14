/**
 * One time zone check (actions/validation.ts, checkTimezone) for every field
 * that takes one: Assistant → Create / Update's Timezone, a call transfer
 * tool's Availability Timezone and Campaign → Create's Timezone. Region/city
 * names pass by their shape, not by the runtime's ICU list, so a zone newer
 * than the n8n process's ICU data passes on both Node lines; what is not such
 * a name is refused with no request sent.
 */
import nock from 'nock';

import { isTimeZoneName } from '../../../nodes/VoiceChatAssistant/actions/validation';
import { TEST_BASE_URL } from '../../helpers/context';
import { rl, run } from './helpers';
import { add, pipe, record, requiredBody, update } from './assistant/fixtures';

const VALID = [
	'Europe/Berlin',
	'Asia/Kolkata',
	'America/Nuuk',
	'Europe/Kyiv',
	'America/Ciudad_Juarez',
	'America/Argentina/Buenos_Aires',
	'America/Port-au-Prince',
	'Asia/Calcutta',
];
const REFUSED = [
	'UTC',
	'Mars/Olympus_Mons',
	'Etc/GMT+2',
	'GMT',
	'+01:00',
	'Europe',
	'Europe/',
	'europe/berlin',
	'Europe/Berlin/Mitte/Nord',
	'Europe/Berlin time',
	'',
];

/** Whether the runtime's ICU data knows a zone. */
function icuKnows(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

describe('time zone names', () => {
	it.each(VALID)('%s is a region/city name', (zone) => expect(isTimeZoneName(zone)).toBe(true));
	it.each(REFUSED)('%j is not', (zone) => expect(isTimeZoneName(zone)).toBe(false));

	it("does not ask the runtime's ICU: a zone it does not know yet passes, one it knows outside the areas does not", () => {
		expect(icuKnows('Asia/Some_New_City')).toBe(false);
		expect(isTimeZoneName('Asia/Some_New_City')).toBe(true);
		expect(icuKnows('UTC')).toBe(true);
		expect(isTimeZoneName('UTC')).toBe(false);
	});

	describe('Assistant → Create', () => {
		it.each(['UTC', 'Mars/Olympus_Mons'])(
			'refuses the Timezone %s, naming the field, before sending',
			async (zone) => {
				const scope = nock(TEST_BASE_URL).post('/api/user/assistant').reply(201, {});
				await expect(run({ ...pipe, timezone: zone })).rejects.toThrow(
					`Timezone must be a region/city time zone name such as Europe/Berlin, got "${zone}"`,
				);
				expect(scope.isDone()).toBe(false);
			},
		);

		it('refuses a call transfer tool whose Availability Timezone is UTC, naming the tool, before sending', async () => {
			const scope = nock(TEST_BASE_URL).post('/api/user/assistant').reply(201, {});
			const tools = {
				tool: [{ type: 'call_transfer', phone_number: '+4930123456', timezone: 'UTC' }],
			};
			await expect(run(add(pipe, { tools }))).rejects.toThrow(
				'Built-in Tools → Tool 1 → Availability Timezone must be a region/city time zone name such as Europe/Berlin, got "UTC"',
			);
			expect(scope.isDone()).toBe(false);
		});

		it.each([
			'Asia/Kolkata',
			'America/Ciudad_Juarez',
			'America/Argentina/Buenos_Aires',
			'Asia/Some_New_City',
		])(
			'sends the Timezone %s (trimmed) in the assistant and its call transfer tool',
			async (zone) => {
				const tools = {
					tool: [{ type: 'call_transfer', phone_number: '+4930123456', timezone: ` ${zone} ` }],
				};
				const scope = nock(TEST_BASE_URL)
					.post('/api/user/assistant', {
						...requiredBody('pipeline'),
						timezone: zone,
						tools: [{ type: 'call_transfer', phone_number: '+4930123456', timezone: zone }],
					})
					.reply(201, { message: 'Assistant created successfully', data: record });
				await run(add({ ...pipe, timezone: ` ${zone} ` }, { tools }));
				scope.done();
			},
		);
	});

	describe('Assistant → Update', () => {
		it('refuses the Timezone Mars/Olympus_Mons before sending', async () => {
			const scope = nock(TEST_BASE_URL).put('/api/user/assistant/9').reply(200, {});
			await expect(run(update({ timezone: 'Mars/Olympus_Mons' }))).rejects.toThrow(
				'Timezone must be a region/city time zone name',
			);
			expect(scope.isDone()).toBe(false);
		});

		it('sends the Timezone Europe/Kyiv', async () => {
			const scope = nock(TEST_BASE_URL)
				.put('/api/user/assistant/9', { timezone: 'Europe/Kyiv' })
				.reply(200, { message: 'Assistant updated successfully', data: record });
			await run(update({ timezone: 'Europe/Kyiv' }));
			scope.done();
		});
	});

	describe('Campaign → Create', () => {
		const base = {
			resource: 'campaign',
			operation: 'create',
			name: 'Autumn',
			assistantId: rl('2'),
		};

		it.each(['UTC', 'Mars/Olympus_Mons', 'Etc/GMT+2'])(
			'refuses the Timezone %s before sending',
			async (zone) => {
				const scope = nock(TEST_BASE_URL).post('/api/user/campaigns').reply(201, {});
				await expect(run({ ...base, additionalFields: { timezone: zone } })).rejects.toThrow(
					`Timezone must be a region/city time zone name such as Europe/Berlin, got "${zone}"`,
				);
				expect(scope.isDone()).toBe(false);
			},
		);

		it.each(['America/Nuuk', 'Asia/Kolkata'])('sends the Timezone %s', async (zone) => {
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/campaigns', { name: 'Autumn', assistant_id: 2, timezone: zone })
				.reply(201, { data: { id: 9, name: 'Autumn' } });
			await run({ ...base, additionalFields: { timezone: zone } });
			scope.done();
		});
	});
});
