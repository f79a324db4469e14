/** Pickers of folders and labels: every page of the list, named by name, found by name or ID. */
import nock from 'nock';

import * as organisation from '../../../nodes/VoiceChatAssistant/methods/organisation';
import { TEST_BASE_URL } from '../../helpers/context';
import { pickerContext } from './pickerContext';

const envelope = (data: object[], page: number, last: number) => ({
	data,
	current_page: page,
	last_page: last,
	next_page_url: page < last ? `${TEST_BASE_URL}/api/user/labels?page=${page + 1}` : null,
});

describe('folder and label pickers', () => {
	it('getLabels reads every page and sorts by name', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/labels')
			.query({ per_page: 100, page: 1 })
			.reply(200, envelope([{ id: 2, name: 'VIP' }], 1, 2))
			.get('/api/user/labels')
			.query({ per_page: 100, page: 2 })
			.reply(200, envelope([{ id: 1, name: 'German' }], 2, 2));
		const { ctx } = pickerContext();
		expect(await organisation.loadOptions.getLabels.call(ctx)).toEqual([
			{ name: 'German', value: 1 },
			{ name: 'VIP', value: 2 },
		]);
		scope.done();
	});

	it('searchFolders filters by name or ID', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/folders')
			.query(true)
			.times(2)
			.reply(
				200,
				envelope(
					[
						{ id: 1, name: 'Support' },
						{ id: 12, name: 'Sales' },
					],
					1,
					1,
				),
			);
		const { ctx } = pickerContext();
		expect(await organisation.listSearch.searchFolders.call(ctx, 'sal')).toEqual({
			results: [{ name: 'Sales', value: '12' }],
		});
		expect(await organisation.listSearch.searchFolders.call(ctx, '1')).toEqual({
			results: [{ name: 'Support', value: '1' }],
		});
	});
});
