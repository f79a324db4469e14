import { describeListOperation } from './listCases';

describeListOperation([
	[
		'getAssignablePhoneNumbers',
		'/api/user/assistants/phone-numbers',
		{ assistantType: 'outbound' },
		{ type: 'outbound' },
	],
]);
