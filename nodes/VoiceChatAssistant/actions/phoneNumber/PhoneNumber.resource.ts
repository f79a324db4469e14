import { withCost } from '../../descriptions';
import { resourceDescription } from '../resourceDescription';
import * as getMany from './getMany.operation';
import * as getManySmsCapable from './getManySmsCapable.operation';
import * as purchase from './purchase.operation';
import * as release from './release.operation';
import * as search from './search.operation';
import * as updateNickname from './updateNickname.operation';

export const operations = { getMany, getManySmsCapable, purchase, release, search, updateNickname };

export const description = resourceDescription('phoneNumber', 'getMany', operations, [
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get all phone numbers of the account',
		description: 'List all phone numbers of the account',
	},
	{
		name: 'Get Many SMS-Capable',
		value: 'getManySmsCapable',
		action: 'Get SMS-capable phone numbers',
		description: 'List only SMS-capable numbers with an active subscription (legacy list)',
	},
	{
		name: 'Purchase',
		value: 'purchase',
		action: 'Buy a phone number',
		description: withCost('Buy a number found by Search Available', 'purchaseNumber'),
	},
	{
		name: 'Release',
		value: 'release',
		action: 'Release a phone number',
		description: `Give up a number of the account. ${release.RELEASE_EFFECT}.`,
	},
	{
		name: 'Search Available',
		value: 'search',
		action: 'Search phone numbers available to buy',
		description: 'Search phone numbers available for purchase in a country',
	},
	{
		name: 'Update Nickname',
		value: 'updateNickname',
		action: 'Update the nickname of a phone number',
		description: 'Set or remove the nickname of a phone number',
	},
]);
