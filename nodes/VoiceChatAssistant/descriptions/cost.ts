import type { INodeProperties } from 'n8n-workflow';

/**
 * What an operation that spends money or reaches a person costs, in one
 * sentence. The same sentence stands in the operation's dropdown description
 * (what the action list and an AI agent read) and in a notice at the top of
 * its form (costNotice), so the two never drift apart.
 */
export const COST = {
	makeCall:
		'Costs money and reaches a person: the assistant phones the number at once, charged to the account balance',
	startCampaign:
		"Costs money and reaches people: the assistant phones the campaign's leads, every call charged to the account balance",
	generateAiReply: 'Costs money: every reply is charged to the account balance',
	sendMessage:
		'Costs money for widget conversations (0.01 USD per message, charged to the account balance); test conversations are free',
	purchaseNumber:
		'Costs money: starts a monthly, auto-renewing subscription charged to the payment method stored in the account (not the balance), non-refundable, running until the number is released',
	sendSms:
		'Costs money and reaches a person: charged to the account balance per segment, the price depends on the destination country',
	sendWhatsApp: 'Costs money and reaches a person: charged to the account balance',
} as const;

export type CostKey = keyof typeof COST;

/** `base` and the cost sentence, as an operation's dropdown description. */
export function withCost(base: string, key: CostKey): string {
	return `${base}. ${COST[key]}.`;
}

/** The notice at the top of the operation's form: the cost sentence, and that it is sent once. */
export function costNotice(key: CostKey, name = `${key}Notice`): INodeProperties {
	return {
		displayName: `${COST[key]}. It is sent once and never repeated automatically.`,
		name,
		type: 'notice',
		default: '',
	};
}
