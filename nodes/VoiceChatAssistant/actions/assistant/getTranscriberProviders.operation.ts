import { listOperation } from '../listOperation';

export const { description, execute } = listOperation(
	'assistant',
	'getTranscriberProviders',
	'/api/user/assistants/transcriber-providers',
);
