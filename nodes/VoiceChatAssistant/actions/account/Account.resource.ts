import { resourceDescription } from '../resourceDescription';
import * as getProfile from './getProfile.operation';
import * as getApiKeys from './getApiKeys.operation';

export const operations = { getProfile, getApiKeys };

export const description = resourceDescription('account', 'getProfile', operations, [
	{
		name: 'Get Profile',
		value: 'getProfile',
		action: 'Get the profile and balance of the account',
		description:
			'Get the name, email and current USD balance of the account the API key belongs to',
	},
	{
		name: 'Get API Keys',
		value: 'getApiKeys',
		action: "Get the account's API keys",
		description:
			'List the API keys of the account (metadata only; the key values are never returned), one item per key',
	},
]);
