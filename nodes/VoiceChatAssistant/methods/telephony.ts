/**
 * Pickers of the telephony operations (merged into the node's methods).
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest, asList } from '../transport';

/** How a SIP trunk is shown in a list: its nickname and number, or the number alone. */
function sipTrunkName(trunk: IDataObject): string {
	const number = String(trunk.phone_number ?? trunk.id);
	const nickname = typeof trunk.nickname === 'string' ? trunk.nickname.trim() : '';
	const host = trunk.sip_address ? ` @ ${trunk.sip_address}` : '';
	return nickname ? `${nickname} (${number}${host})` : `${number}${host}`;
}

export const listSearch = {
	/** SIP trunks, found by nickname, number, address or ID (the list is not paginated). */
	async searchSipTrunks(
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		const list = asList(await apiRequest.call(this, 'GET', '/api/user/phone-numbers/sip-trunks'));
		const needle = filter?.trim().toLowerCase();
		return {
			results: list
				.filter(
					(trunk) =>
						!needle ||
						sipTrunkName(trunk).toLowerCase().includes(needle) ||
						String(trunk.id) === needle,
				)
				.map((trunk) => ({ name: sipTrunkName(trunk), value: String(trunk.id) })),
		};
	},
};

export const loadOptions = {};
