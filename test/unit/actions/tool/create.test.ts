import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

import { createBody, createParams, tool } from './fixtures';

describe('Mid Call Tool → Create', () => {
	it('Tool → Create sends every field, headers and parameters', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/tools', {
				...createBody,
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

	it('Tool → Create leaves an empty optional parameter description out instead of sending ""', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(
				'/api/user/tools',
				(body) =>
					JSON.stringify(body.schema) === JSON.stringify([{ name: 'date', type: 'string' }]),
			)
			.reply(201, { message: 'Tool created', data: tool });
		await run({
			...createParams,
			additionalFields: { schema: { values: [{ name: 'date', type: 'string', description: '' }] } },
		});
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
		[
			{ additionalFields: { timeout: 31 } },
			'Timeout (Seconds) must be a whole number from 1 to 30',
		],
		[
			{ additionalFields: { schema: { values: [{ name: 'x', type: 'date' }] } } },
			'Parameters → Parameter 1 → Type must be one of boolean, number, string',
		],
		[
			{ additionalFields: { headers: { values: [{ name: ' ', value: 'v' }] } } },
			'Headers → Header 1 needs a name',
		],
	])('Tool → Create refuses %j before sending anything', async (change, message) => {
		await expect(run({ ...createParams, ...change })).rejects.toThrow(message);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Tool → Create at the plan limit shows the service text', async () => {
		nock(TEST_BASE_URL).post('/api/user/tools').reply(403, {
			message: 'You have reached the limit of 10 mid call tools. Please upgrade your plan.',
		});
		await expect(run(createParams)).rejects.toThrow('Please upgrade your plan.');
	});
});
