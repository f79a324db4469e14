/** Picker of SIP trunks: named by nickname, number and address, found by any of them or the ID. */
import nock from 'nock';

import * as telephony from '../../../nodes/VoiceChatAssistant/methods/telephony';
import { VoiceChatAssistant } from '../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';
import { TEST_BASE_URL } from '../../helpers/context';
import { pickerContext } from './pickerContext';

const trunks = [
	{
		id: 5,
		phone_number: '+49895550105',
		nickname: 'Office PBX',
		sip_address: 'sip.provider.example',
	},
	{ id: 12, phone_number: '101', nickname: null, sip_address: 'pbx.example' },
];

describe('SIP trunk picker', () => {
	it('lists every trunk ({data: [...]})', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/phone-numbers/sip-trunks')
			.reply(200, { data: trunks });
		const { ctx } = pickerContext();
		expect(await telephony.listSearch.searchSipTrunks.call(ctx)).toEqual({
			results: [
				{ name: 'Office PBX (+49895550105 @ sip.provider.example)', value: '5' },
				{ name: '101 @ pbx.example', value: '12' },
			],
		});
		scope.done();
	});

	it('filters a bare array by name, number, address or ID', async () => {
		nock(TEST_BASE_URL).get('/api/user/phone-numbers/sip-trunks').times(4).reply(200, trunks);
		const { ctx } = pickerContext();
		const values = async (filter: string) =>
			(await telephony.listSearch.searchSipTrunks.call(ctx, filter)).results.map((r) => r.value);
		expect(await values('office')).toEqual(['5']);
		expect(await values('pbx.example')).toEqual(['12']);
		expect(await values('+4989')).toEqual(['5']);
		expect(await values('12')).toEqual(['12']);
	});

	it('is the list search the SIP trunk locator names, merged into the node', () => {
		const node = new VoiceChatAssistant();
		// the node's method is the picker behind the credential guard (test/unit/methods/credentialGuard.test.ts)
		expect(typeof node.methods.listSearch.searchSipTrunks).toBe('function');
		expect(typeof telephony.listSearch.searchSipTrunks).toBe('function');
		const locator = node.description.properties.find((p) => p.name === 'sipTrunkId')!;
		const list = locator.modes!.find((m) => m.name === 'list')!;
		expect(list.typeOptions?.searchListMethod).toBe('searchSipTrunks');
	});
});
