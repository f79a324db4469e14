/** Label → Create. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const resource = 'label';
const noun = 'Label';

describe('Label → Create', () => {
	it(`Create posts {name, color} to /api/user/${resource} and outputs the record`, async () => {
		const record = { id: 7, name: 'Sales', color: 'teal', assistants_count: 0 };
		const scope = nock(TEST_BASE_URL)
			.post(`/api/user/${resource}`, { name: 'Sales', color: 'teal' })
			.reply(201, { message: `${noun} created successfully`, data: record });
		expect(
			await run({ resource, operation: 'create', name: ' Sales ', options: { color: 'teal' } }),
		).toEqual([item(record)]);
		scope.done();
	});

	it('Create without a color sends the name only; a name taken answers with the service message', async () => {
		nock(TEST_BASE_URL)
			.post(`/api/user/${resource}`, { name: 'Sales' })
			.reply(422, {
				message: 'The name has already been taken.',
				errors: { name: ['The name has already been taken.'] },
			});
		await expect(
			run({ resource, operation: 'create', name: 'Sales', options: {} }),
		).rejects.toThrow('The name has already been taken.');
	});

	it('Create refuses an empty name, a name over 255 characters and an unknown color before sending', async () => {
		await expect(run({ resource, operation: 'create', name: '  ', options: {} })).rejects.toThrow(
			'Name',
		);
		await expect(
			run({ resource, operation: 'create', name: 'x'.repeat(256), options: {} }),
		).rejects.toThrow('255');
		await expect(
			run({ resource, operation: 'create', name: 'A', options: { color: 'black' } }),
		).rejects.toThrow(/Color.*amber/);
	});
});
