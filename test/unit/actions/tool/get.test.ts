import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

import { createParams, tool, toolRef } from './fixtures';

describe('Mid Call Tool, Campaign, Phone Number', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	// one round trip through Get, Get Many, Update and Delete; it starts here, at Get
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

	// also shows Create's plan limit (403)
	it('Tool → Get of an unknown tool and the plan limit show the service text', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/tools/3').reply(404, { message: 'Tool not found' })
			.post('/api/user/tools').reply(403, { message: 'You have reached the limit of 10 mid call tools. Please upgrade your plan.' });
		await expect(run({ resource: 'tool', operation: 'get', toolId: toolRef })).rejects.toThrow('Tool not found');
		await expect(run(createParams)).rejects.toThrow('Please upgrade your plan.');
	});
});
