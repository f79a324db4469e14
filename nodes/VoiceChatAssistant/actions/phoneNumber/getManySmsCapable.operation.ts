import { listOperation } from '../listOperation';

export const { description, execute } = listOperation(
	'phoneNumber',
	'getManySmsCapable',
	'/api/user/phone-numbers',
);
