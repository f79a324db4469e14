import { listOperation } from '../listOperation';

export const { description, execute } = listOperation(
	'phoneNumber',
	'getMany',
	'/api/user/phone-numbers/all',
);
