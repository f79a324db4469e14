import { withCost } from '../../descriptions';
import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as start from './start.operation';
import * as stop from './stop.operation';

export const operations = { create, delete: del, get, getMany, start, stop };

export const description = resourceDescription('campaign', 'getMany', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a campaign',
		description:
			'Create an outbound calling campaign (status draft) for an outbound assistant; add leads, then start it',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a campaign',
		description:
			'Delete a campaign permanently together with all its leads; a running campaign is stopped first',
	},
	{
		name: 'Get',
		value: 'get',
		action: 'Get a campaign',
		description: 'Get one campaign with its status, calling hours, days and retries',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many campaigns',
		description: 'List the campaigns of the account',
	},
	{
		name: 'Start',
		value: 'start',
		action: 'Start a campaign',
		description: withCost("Start calling the campaign's leads", 'startCampaign'),
	},
	{
		name: 'Stop',
		value: 'stop',
		action: 'Stop a campaign',
		description: 'Stop a running campaign; calls in progress are ended',
	},
]);
