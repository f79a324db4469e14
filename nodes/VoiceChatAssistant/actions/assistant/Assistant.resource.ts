import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as disableConversationEndedWebhook from './disableConversationEndedWebhook.operation';
import * as disableInboundWebhook from './disableInboundWebhook.operation';
import * as disablePostCallWebhook from './disablePostCallWebhook.operation';
import * as enableConversationEndedWebhook from './enableConversationEndedWebhook.operation';
import * as enableInboundWebhook from './enableInboundWebhook.operation';
import * as enablePostCallWebhook from './enablePostCallWebhook.operation';
import * as get from './get.operation';
import * as getAssignablePhoneNumbers from './getAssignablePhoneNumbers.operation';
import * as getLanguages from './getLanguages.operation';
import * as getMany from './getMany.operation';
import * as getModels from './getModels.operation';
import * as getOutbound from './getOutbound.operation';
import * as getSynthesizerProviders from './getSynthesizerProviders.operation';
import * as getTranscriberProviders from './getTranscriberProviders.operation';
import * as getVoices from './getVoices.operation';
import * as update from './update.operation';

export const operations = {
	create,
	delete: deleteOperation,
	disableConversationEndedWebhook,
	disableInboundWebhook,
	disablePostCallWebhook,
	enableConversationEndedWebhook,
	enableInboundWebhook,
	enablePostCallWebhook,
	get,
	getAssignablePhoneNumbers,
	getLanguages,
	getMany,
	getModels,
	getOutbound,
	getSynthesizerProviders,
	getTranscriberProviders,
	getVoices,
	update,
};

export const description = resourceDescription('assistant', 'getMany', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create an assistant',
		description: 'Create a voice/chat assistant',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete an assistant',
		description: 'Delete an assistant permanently',
	},
	{
		name: 'Disable Conversation-Ended Webhook',
		value: 'disableConversationEndedWebhook',
		action: "Disable an assistant's conversation-ended webhook",
		description: 'Stop sending chat transcripts of an assistant when its chats end',
	},
	{
		name: 'Disable Inbound Webhook',
		value: 'disableInboundWebhook',
		action: "Disable an assistant's inbound webhook",
		description: 'Stop sending inbound call notifications of an assistant',
	},
	{
		name: 'Disable Post-Call Webhook',
		value: 'disablePostCallWebhook',
		action: "Disable an assistant's post-call webhook",
		description: 'Stop sending post-call notifications of an assistant',
	},
	{
		name: 'Enable Conversation-Ended Webhook',
		value: 'enableConversationEndedWebhook',
		action: "Enable an assistant's conversation-ended webhook",
		description:
			"Send the transcript of an assistant's widget and WhatsApp chats to a URL when they end",
	},
	{
		name: 'Enable Inbound Webhook',
		value: 'enableInboundWebhook',
		action: "Enable an assistant's inbound webhook",
		description: "Send notifications about an assistant's inbound calls to a URL",
	},
	{
		name: 'Enable Post-Call Webhook',
		value: 'enablePostCallWebhook',
		action: "Enable an assistant's post-call webhook",
		description: 'Send every ended call of an assistant (transcript, variables) to a URL',
	},
	{
		name: 'Get',
		value: 'get',
		action: 'Get an assistant',
		description: 'Get one assistant with its whole configuration',
	},
	{
		name: 'Get Assignable Phone Numbers',
		value: 'getAssignablePhoneNumbers',
		action: 'Get phone numbers an assistant can use',
		description: 'List the phone numbers that can be assigned to an inbound or outbound assistant',
	},
	{
		name: 'Get Languages',
		value: 'getLanguages',
		action: 'Get the languages assistants can speak',
		description: 'List the languages an assistant can use',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many assistants',
		description: 'List the assistants of the account',
	},
	{
		name: 'Get Many Outbound',
		value: 'getOutbound',
		action: 'Get the outbound assistants',
		description: 'List the outbound assistants of the account',
	},
	{
		name: 'Get Models',
		value: 'getModels',
		action: 'Get the AI models of an engine mode',
		description: 'List the language models (LLM) or multimodal models an assistant can use',
	},
	{
		name: 'Get Synthesizer Providers',
		value: 'getSynthesizerProviders',
		action: 'Get the text-to-speech providers',
		description: 'List the speech synthesizer (text-to-speech) providers',
	},
	{
		name: 'Get Transcriber Providers',
		value: 'getTranscriberProviders',
		action: 'Get the speech-to-text providers',
		description: 'List the transcriber (speech-to-text) providers',
	},
	{
		name: 'Get Voices',
		value: 'getVoices',
		action: 'Get the voices an assistant can use',
		description: 'List voices, optionally only those of an engine mode and a language',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update an assistant',
		description: 'Change settings of an assistant',
	},
]);
