import { listOperation } from '../listOperation';

export const { description, execute } = listOperation('tool', 'getMany', '/api/user/tools');
