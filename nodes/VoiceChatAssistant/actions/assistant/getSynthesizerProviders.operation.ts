import { listOperation } from '../listOperation';

export const { description, execute } = listOperation(
	'assistant',
	'getSynthesizerProviders',
	'/api/user/assistants/synthesizer-providers',
);
