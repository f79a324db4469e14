import { listOperation } from '../listOperation';

export const { description, execute } = listOperation('campaign', 'getMany', '/api/user/campaigns');
