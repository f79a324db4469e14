import nock from 'nock';

import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../helpers/context';

const run = async (parameters: any) => (await router.call(createContext({ parameters }).context))[0];
const item = (json: unknown) => ({ json, pairedItem: { item: 0 } });
const toolRef = { __rl: true, mode: 'id', value: '3' };
const tool = { id: 3, name: 'check_availability', description: 'Checks free slots', endpoint: 'https://api.example.com/a', method: 'POST', timeout: 10, headers: [], schema: [] };
const createParams = {
	resource: 'tool',
	operation: 'create',
	name: 'check_availability',
	description: 'Checks free slots',
	endpoint: 'https://api.example.com/a',
	method: 'POST',
};

describe('Mid Call Tool, Campaign, Phone Number', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Tool → Create sends every field, headers and parameters', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/tools', {
				name: 'check_availability',
				description: 'Checks free slots',
				endpoint: 'https://api.example.com/a',
				method: 'POST',
				timeout: 12,
				headers: [{ name: 'Authorization', value: 'Bearer abc' }],
				schema: [{ name: 'date', type: 'string', description: 'The day asked for' }],
			})
			.reply(201, { message: 'Tool created', data: tool });
		const output = await run({
			...createParams,
			additionalFields: {
				timeout: 12,
				headers: { values: [{ name: 'Authorization', value: 'Bearer abc' }] },
				schema: { values: [{ name: 'date', type: 'string', description: 'The day asked for' }] },
			},
		});
		expect(output).toEqual([item(tool)]);
		scope.done();
	});

	it.each([
		[{ name: 'CheckAvailability' }, 'Name must be lowercase letters and underscores'],
		[{ name: '1st_tool' }, 'Name must be lowercase letters and underscores'],
		[{ name: 'check-availability' }, 'Name must be lowercase letters and underscores'],
		[{ description: '' }, 'Description is required'],
		[{ description: 'd'.repeat(256) }, 'Description is too long: 256 characters, at most 255'],
		[{ endpoint: 'not a url' }, 'Endpoint must be a valid http(s) URL'],
		[{ endpoint: 'ftp://example.com' }, 'Endpoint must be a valid http(s) URL'],
		[{ method: 'HEAD' }, 'Method must be one of DELETE, GET, PATCH, POST, PUT'],
		[{ additionalFields: { timeout: 0 } }, 'Timeout (Seconds) must be a whole number from 1 to 30'],
		[{ additionalFields: { timeout: 31 } }, 'Timeout (Seconds) must be a whole number from 1 to 30'],
		[{ additionalFields: { schema: { values: [{ name: 'x', type: 'date' }] } } }, 'Parameters → Parameter 1 → Type must be one of boolean, number, string'],
		[{ additionalFields: { headers: { values: [{ name: ' ', value: 'v' }] } } }, 'Headers → Header 1 needs a name'],
	])('Tool → Create refuses %j before sending anything', async (change, message) => {
		await expect(run({ ...createParams, ...change })).rejects.toThrow(message);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Tool → Get, Get Many (bare array), Update, Delete', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/tools/3').reply(200, tool)
			.get('/api/user/tools').reply(200, [tool, { ...tool, id: 4 }])
			.put('/api/user/tools/3', { timeout: 20, schema: [] }).reply(200, { message: 'Tool updated', data: { ...tool, timeout: 20 } })
			.delete('/api/user/tools/3').reply(200, { message: 'Tool deleted' });
		expect(await run({ resource: 'tool', operation: 'get', toolId: toolRef })).toEqual([item(tool)]);
		expect((await run({ resource: 'tool', operation: 'getMany', returnAll: true })).map((i) => i.json.id)).toEqual([3, 4]);
		expect(await run({ resource: 'tool', operation: 'update', toolId: toolRef, updateFields: { timeout: 20, schema: {} } })).toEqual([item({ ...tool, timeout: 20 })]);
		expect(await run({ resource: 'tool', operation: 'delete', toolId: toolRef })).toEqual([item({ deleted: true, id: 3, message: 'Tool deleted' })]);
		scope.done();
	});

	it('Tool → Get of an unknown tool and the plan limit show the service text', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/tools/3').reply(404, { message: 'Tool not found' })
			.post('/api/user/tools').reply(403, { message: 'You have reached the limit of 10 mid call tools. Please upgrade your plan.' });
		await expect(run({ resource: 'tool', operation: 'get', toolId: toolRef })).rejects.toThrow('Tool not found');
		await expect(run(createParams)).rejects.toThrow('Please upgrade your plan.');
	});

	it('Campaign → Get Many returns one item per campaign', async () => {
		nock(TEST_BASE_URL).get('/api/user/campaigns').reply(200, { data: [{ id: 1, name: 'Spring' }, { id: 2, name: 'Summer' }] });
		expect(await run({ resource: 'campaign', operation: 'getMany', returnAll: true })).toEqual([item({ id: 1, name: 'Spring' }), item({ id: 2, name: 'Summer' })]);
	});

	it('Phone Number → Get Many and Get Many SMS-Capable read their lists', async () => {
		const n = { id: 1, phone_number: '+14155550100', type: 'normal', sms_capable: true };
		nock(TEST_BASE_URL).get('/api/user/phone-numbers/all').reply(200, { data: [n, { ...n, id: 2 }] }).get('/api/user/phone-numbers').reply(200, { data: [n] });
		expect(await run({ resource: 'phoneNumber', operation: 'getMany', returnAll: false, limit: 1 })).toEqual([item(n)]);
		expect(await run({ resource: 'phoneNumber', operation: 'getManySmsCapable', returnAll: true })).toEqual([item(n)]);
	});

	it('Phone Number → Search Available sends country and digits', async () => {
		const found = { phone_number: '+14155550123', price: 1.15, country_code: 'US' };
		const scope = nock(TEST_BASE_URL).get('/api/user/phone-numbers/search').query({ country_code: 'GB', contains: '207' }).reply(200, { data: [found] });
		expect(await run({ resource: 'phoneNumber', operation: 'search', country: 'GB', digits: '207', returnAll: true })).toEqual([item(found)]);
		scope.done();
	});

	it.each([
		[{ country: 'DE' }, 'Country must be one of AU, CA, DK, FI, IL, IT, NL, PL, GB, US, got "DE"'],
		[{ digits: '41a' }, 'Contains Digits must be digits only, at most 10'],
		[{ digits: '12345678901' }, 'Contains Digits must be digits only, at most 10'],
	])('Phone Number → Search Available refuses %j', async (change, message) => {
		await expect(run({ resource: 'phoneNumber', operation: 'search', country: 'US', returnAll: true, ...change })).rejects.toThrow(message);
	});
});
