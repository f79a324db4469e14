import { withCost } from '../../descriptions';
import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as disableAi from './disableAi.operation';
import * as enableAi from './enableAi.operation';
import * as generateAiReply from './generateAiReply.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as sendMessage from './sendMessage.operation';

export const operations = {
	create,
	disableAi,
	enableAi,
	generateAiReply,
	get,
	getMany,
	sendMessage,
};

export const description = resourceDescription('conversation', 'getMany', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Start a conversation with an assistant',
		description: 'Start a text conversation with an assistant',
	},
	{
		name: 'Disable AI',
		value: 'disableAi',
		action: 'Disable AI answers of a conversation',
		description:
			'Stop the AI from answering a conversation so a human can take over; new messages are stored but not answered',
	},
	{
		name: 'Enable AI',
		value: 'enableAi',
		action: 'Enable AI answers of a conversation',
		description: 'Let the AI answer a conversation again after a human takeover',
	},
	{
		name: 'Generate AI Reply',
		value: 'generateAiReply',
		action: 'Generate an AI reply',
		description: withCost(
			"Get an assistant's reply to a customer message from any channel",
			'generateAiReply',
		),
	},
	{
		name: 'Get',
		value: 'get',
		action: "Get a conversation's messages",
		description: 'Get the message history of a conversation',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many conversations',
		description: "List the conversations of the account's assistants",
	},
	{
		name: 'Send Message',
		value: 'sendMessage',
		action: 'Send a message in a conversation',
		description: withCost(
			"Send a user message to a conversation and get the assistant's reply",
			'sendMessage',
		),
	},
]);
