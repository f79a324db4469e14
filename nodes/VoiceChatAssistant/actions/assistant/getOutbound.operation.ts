import { listOperation } from '../listOperation';

export const { description, execute } = listOperation(
	'assistant',
	'getOutbound',
	'/api/user/assistants/outbound',
);
