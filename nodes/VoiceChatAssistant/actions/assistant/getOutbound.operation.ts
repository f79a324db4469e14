import { listOperation } from '../listOperation';
import { simplifyAssistant } from '../simplify';
import type { Simplify } from '../types';

export const { description, execute } = listOperation(
	'assistant',
	'getOutbound',
	'/api/user/assistants/outbound',
);

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyAssistant,
	fields:
		'id, uuid, name, status, type, mode, phone number, webhook switch, created and updated at',
};
