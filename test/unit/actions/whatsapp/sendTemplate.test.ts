/** WhatsApp → Send Template: POST /api/user/whatsapp/send with the mapped template variables. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

const answer = {
	success: true,
	conversation_id: 31,
	message_id: 501,
	whatsapp_message_id: 901,
	message_sid: 'SM0123',
	status: 'queued',
};
const mapper = (value: object | null) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: [],
});
const base = {
	resource: 'whatsapp',
	operation: 'sendTemplate',
	senderId: rl('1'),
	templateId: rl('4'),
	templateVariables: mapper({ customer_name: 'Ada', order_number: 'A-17' }),
	recipientPhone: '+4915112345678',
	options: {},
};

describe('WhatsApp: Send Template', () => {
	it.each([
		[
			'posts sender, template, recipient and the variables by name; outputs the ids',
			{},
			{ variables: { customer_name: 'Ada', order_number: 'A-17' } },
		],
		[
			'adds the recipient name and JSON variables ("1", "2"); mapped values win, empty ones are left out',
			{
				templateVariables: mapper({ customer_name: 'Grace', order_number: '' }),
				options: {
					recipientName: ' Ada Lovelace ',
					variablesJson: '{"1": "Ada", "2": "B-2", "customer_name": "x"}',
				},
			},
			{
				recipient_name: 'Ada Lovelace',
				variables: { '1': 'Ada', '2': 'B-2', customer_name: 'Grace' },
			},
		],
	])('%s', async (_title, parameters, body) => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/whatsapp/send', {
				sender_id: 1,
				template_id: 4,
				recipient_phone: '+4915112345678',
				...body,
			})
			.reply(200, answer);
		const { success, ...rest } = answer;
		expect(success).toBe(true);
		expect(await run({ ...base, ...parameters })).toEqual([item(rest)]);
		scope.done();
	});

	it('a template without variables is sent without a variables object', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(
				'/api/user/whatsapp/send',
				(body) => body.variables === undefined && body.template_id === 2,
			)
			.reply(200, answer);
		await run({ ...base, templateId: rl('2', 'id'), templateVariables: mapper(null) });
		scope.done();
	});

	it.each([
		[{ recipientPhone: '4915112345678' }, 'Recipient Phone must be a phone number in E.164 form'],
		[{ templateId: rl('') }, 'Template must be a positive whole number'],
		[{ senderId: rl('x', 'id') }, 'Sender must be a positive whole number'],
		[
			{ options: { recipientName: 'n'.repeat(256) } },
			'Recipient Name is too long: 256 characters, at most 255 are allowed',
		],
		[{ options: { variablesJson: '[1,2]' } }, 'Variables (JSON) must be a JSON object'],
	])('refuses %j before sending', async (change, message) => {
		const scope = nock(TEST_BASE_URL).post('/api/user/whatsapp/send').reply(200, answer);
		await expect(run({ ...base, ...change })).rejects.toThrow(message);
		expect(scope.isDone()).toBe(false);
	});

	it.each([
		[402, 'INSUFFICIENT_BALANCE', 'Insufficient balance', 'Top up'],
		[422, 'SENDER_OFFLINE', 'The sender is offline', 'Get Senders'],
		[422, 'TEMPLATE_NOT_APPROVED', 'Template is not approved', 'Only approved templates'],
		[404, 'TEMPLATE_NOT_FOUND', 'Template not found', 'pick it from the list'],
	])(
		'a %i %s fails once with the service text, the code and a hint',
		async (status, code, text, hint) => {
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/whatsapp/send')
				.once()
				.reply(status, { success: false, error: text, error_code: code });
			const error = await run(base).catch((e) => e);
			expect(error.message).toBe(text);
			expect(error.description).toContain(`Error code: ${code}.`);
			expect(error.description).toContain(hint);
			scope.done();
		},
	);

	it('a failure that comes with HTTP 200 is an error too', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/whatsapp/send')
			.reply(200, { success: false, error: 'Invalid phone', error_code: 'INVALID_PHONE' });
		await expect(run(base)).rejects.toThrow('Invalid phone');
	});
});
