/**
 * Which workflow test file runs which operations. resources.test.ts runs the
 * operations of the API contract (those docs/api.md lists); the files under test/workflow/classic/ run the rest of
 * the classic API, one area each, and Lead → Create with the other lead tests (campaigns). Every file checks that it ran its own list,
 * and resources.test.ts checks that the lists and its own runs cover the node.
 */
import type { INodeProperties } from 'n8n-workflow';

import { VoiceChatAssistant } from '../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';

export const CLASSIC_AREAS: Record<string, string[]> = {
	messaging: [
		'sms:send',
		'whatsapp:getSenders',
		'whatsapp:getTemplates',
		'whatsapp:getSessionStatus',
		'whatsapp:sendTemplate',
		'whatsapp:sendFreeform',
		'conversation:generateAiReply',
		'conversation:disableAi',
		'conversation:enableAi',
	],
	campaigns: [
		'campaign:create',
		'campaign:start',
		'campaign:stop',
		'campaign:delete',
		'lead:create',
		'lead:getMany',
		'lead:update',
		'lead:delete',
		'call:delete',
	],
	telephony: [
		'phoneNumber:purchase',
		'phoneNumber:updateNickname',
		'phoneNumber:release',
		'sipTrunk:create',
		'sipTrunk:get',
		'sipTrunk:getMany',
		'sipTrunk:update',
		'sipTrunk:delete',
	],
	organisation: [
		'folder:create',
		'folder:getMany',
		'folder:update',
		'folder:delete',
		'label:create',
		'label:getMany',
		'label:update',
		'label:delete',
		'assistant:enableConversationEndedWebhook',
		'assistant:disableConversationEndedWebhook',
	],
};

/** Every `resource:operation` the node offers, from its description. */
export function allOperations(): string[] {
	const properties = new VoiceChatAssistant().description.properties as INodeProperties[];
	const resources = (properties.find((p) => p.name === 'resource')!.options as Array<{ value: string }>).map((o) => o.value);
	const all: string[] = [];
	for (const resource of resources) {
		const picker = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
		for (const option of (picker?.options ?? []) as Array<{ value: string }>) all.push(`${resource}:${option.value}`);
	}
	return all;
}
