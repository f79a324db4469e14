import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';
import { describeListOperation } from './listCases';

describeListOperation([['getLanguages', '/api/user/assistants/languages', {}, {}]], () => {
	it('a list wrapped in {data} is unwrapped too (Return All)', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/languages')
			.reply(200, { data: [{ id: 1, name: 'German' }] });
		expect(
			await run({ resource: 'assistant', operation: 'getLanguages', returnAll: true }),
		).toEqual(items([{ id: 1, name: 'German' }]));
		scope.done();
	});
});
