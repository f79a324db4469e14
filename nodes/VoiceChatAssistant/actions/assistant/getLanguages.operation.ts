import { listOperation } from '../listOperation';

export const { description, execute } = listOperation(
	'assistant',
	'getLanguages',
	'/api/user/assistants/languages',
);
