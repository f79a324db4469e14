import type { INodeProperties } from 'n8n-workflow';

import {
	assistantLocator,
	campaignLocator,
	CONVERSATION_TYPE_OPTIONS,
} from '../VoiceChatAssistant/descriptions';
import { CALL_ENDED } from './events/callEnded';
import { CAMPAIGN_STATUS_CHANGED } from './events/campaignStatusChanged';
import { CONVERSATION_ENDED } from './events/conversationEnded';
import { LEAD_STATUS_CHANGED } from './events/leadStatusChanged';
import { NEW_CONVERSATION } from './events/newConversation';

/**
 * The fields several events share, each shown for the events that read it (an event's own fields
 * are in its file, events/<event>.ts): the assistant, the campaign and the chat filters.
 */
export const SHARED_FIELDS: INodeProperties[] = [
	{
		...assistantLocator,
		displayName: 'Assistant',
		required: false,
		description:
			'Only calls or chats of this assistant (leave empty for all assistants of the account)',
		displayOptions: { show: { event: [CALL_ENDED, NEW_CONVERSATION, CONVERSATION_ENDED] } },
	},
	{
		...campaignLocator,
		required: false,
		description:
			'Only leads or changes of this campaign (leave empty for all campaigns of the account)',
		displayOptions: { show: { event: [LEAD_STATUS_CHANGED, CAMPAIGN_STATUS_CHANGED] } },
	},
	{
		displayName: 'Filters',
		name: 'conversationFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { event: [NEW_CONVERSATION, CONVERSATION_ENDED] } },
		options: [
			{
				displayName: 'Inactivity Minutes',
				name: 'inactivityMinutes',
				type: 'number',
				displayOptions: { show: { '/event': [CONVERSATION_ENDED] } },
				typeOptions: { minValue: 1, maxValue: 1440 },
				default: 30,
				description:
					"Minutes without a new message after which a chat counts as ended (use the assistant's Conversation Inactivity Timeout, default 30). Only for Conversation Ended.",
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				default: 'widget',
				description: 'Only chats of this type',
				options: CONVERSATION_TYPE_OPTIONS,
			},
		],
	},
];
