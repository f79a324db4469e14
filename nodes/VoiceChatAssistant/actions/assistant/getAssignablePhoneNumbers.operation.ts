import { listOperation } from '../listOperation';
import { checkEnum } from '../validation';

export const { description, execute } = listOperation(
	'assistant',
	'getAssignablePhoneNumbers',
	'/api/user/assistants/phone-numbers',
	[
		{
			displayName: 'Assistant Type',
			name: 'assistantType',
			type: 'options',
			default: 'inbound',
			description:
				'For inbound assistants, caller-ID numbers and numbers used by another inbound assistant are left out',
			options: [
				{ name: 'Inbound', value: 'inbound' },
				{ name: 'Outbound', value: 'outbound' },
			],
		},
	],
	(ctx, itemIndex) => {
		const type = ctx.getNodeParameter('assistantType', itemIndex, 'inbound') as string;
		checkEnum(ctx, itemIndex, 'Assistant Type', type, ['inbound', 'outbound']);
		return { type };
	},
);
