import { listOperation } from '../listOperation';

export const { description, execute } = listOperation(
	'knowledgebase',
	'getMany',
	'/api/user/knowledgebases',
);
