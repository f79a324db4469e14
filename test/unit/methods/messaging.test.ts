/** Pickers of the messaging operations: SMS numbers, WhatsApp senders and templates, template variables. */
import nock from 'nock';

import * as messaging from '../../../nodes/VoiceChatAssistant/methods/messaging';
import { VoiceChatAssistant } from '../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';
import { TEST_BASE_URL } from '../../helpers/context';
import { orderUpdate } from '../actions/whatsapp/fixtures';
import { pickerContext } from './pickerContext';

const rl = (value: string) => ({ __rl: true, mode: 'list', value });

const templates = [
	orderUpdate,
	{
		id: 2,
		name: 'welcome',
		language: 'en',
		category: 'marketing',
		status: 'approved',
		body_text: 'Welcome!',
		variables: [],
		has_variables: false,
	},
	{
		id: 3,
		name: 'legacy',
		language: 'de',
		category: 'utility',
		status: 'pending',
		body_text: 'Hallo {{2}} und {{1}}, {{1}}!',
	},
];

describe('messaging pickers', () => {
	it('are merged into the node methods, and every picker the descriptions name exists', () => {
		const node = new VoiceChatAssistant();
		expect(Object.keys(node.methods.listSearch)).toEqual(
			expect.arrayContaining([
				'searchSmsNumbers',
				'searchWhatsappSenders',
				'searchWhatsappTemplates',
			]),
		);
		expect(Object.keys(node.methods.resourceMapping)).toContain('getWhatsappTemplateVariables');
		const json = JSON.stringify(node.description.properties);
		for (const name of [
			'searchSmsNumbers',
			'searchWhatsappSenders',
			'searchWhatsappTemplates',
			'getWhatsappTemplateVariables',
		]) {
			expect(json).toContain(`"${name}"`);
		}
	});

	it('searchSmsNumbers lists only SMS-capable numbers with an active subscription, found by number or region', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/phone-numbers/all')
			.times(2)
			.reply(200, {
				data: [
					{
						id: 1,
						phone_number: '+14155550101',
						sms_capable: true,
						has_active_subscription: true,
						region: 'California',
					},
					{
						id: 3,
						phone_number: '+49305550103',
						sms_capable: false,
						has_active_subscription: true,
					},
					{
						id: 6,
						phone_number: '+447700900106',
						sms_capable: true,
						has_active_subscription: false,
					},
					{ id: 7, phone_number: '+14155550107', sms_capable: true },
				],
			});
		const { ctx } = pickerContext();
		expect(await messaging.listSearch.searchSmsNumbers.call(ctx)).toEqual({
			results: [
				{ name: '+14155550101 (California)', value: '1' },
				{ name: '+14155550107', value: '7' },
			],
		});
		expect(await messaging.listSearch.searchSmsNumbers.call(ctx, 'calif')).toEqual({
			results: [{ name: '+14155550101 (California)', value: '1' }],
		});
	});

	it('searchWhatsappSenders asks for every sender and lists online ones first, offline ones marked', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/senders')
			.query({ status: 'all' })
			.reply(200, {
				data: [
					{ id: 2, phone_number: '+4930555000200', display_name: 'Sales', status: 'offline' },
					{ id: 1, phone_number: '+4930555000100', display_name: 'Support', status: 'online' },
				],
			});
		const { ctx } = pickerContext();
		expect(await messaging.listSearch.searchWhatsappSenders.call(ctx)).toEqual({
			results: [
				{ name: 'Support (+4930555000100)', value: '1' },
				{ name: 'Sales (+4930555000200) [offline]', value: '2' },
			],
		});
		scope.done();
	});

	it('searchWhatsappTemplates lists the approved templates of the chosen sender; nothing without a sender', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/senders/1/templates')
			.query({ status: 'approved' })
			.reply(200, { data: templates.slice(0, 2) });
		const chosen = pickerContext({ senderId: rl(' 1 ') });
		expect(await messaging.listSearch.searchWhatsappTemplates.call(chosen.ctx, 'order')).toEqual({
			results: [{ name: 'order_update (en, utility)', value: '1' }],
		});
		scope.done();

		const none = pickerContext({ senderId: rl('') });
		expect(await messaging.listSearch.searchWhatsappTemplates.call(none.ctx)).toEqual({
			results: [],
		});
		expect(none.sent).toHaveLength(0);
	});

	it('getWhatsappTemplateVariables offers one field per variable name of the chosen template', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/senders/1/templates')
			.query({ status: 'all' })
			.reply(200, { data: templates });
		const { ctx } = pickerContext({ senderId: rl('1'), templateId: rl('1') });
		const result = await messaging.resourceMapping.getWhatsappTemplateVariables.call(ctx);
		expect(result.fields).toEqual([
			{
				id: 'customer_name',
				displayName: 'customer_name',
				required: true,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type: 'string',
			},
			{
				id: 'order_number',
				displayName: 'order_number',
				required: true,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type: 'string',
			},
		]);
		scope.done();
	});

	it('getWhatsappTemplateVariables: no variables, placeholders without names, unknown template, nothing chosen', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/senders/1/templates')
			.query({ status: 'all' })
			.times(3)
			.reply(200, { data: templates });
		const fieldsOf = async (templateId: string) =>
			await messaging.resourceMapping.getWhatsappTemplateVariables.call(
				pickerContext({ senderId: rl('1'), templateId: rl(templateId) }).ctx,
			);
		expect(await fieldsOf('2')).toEqual({
			fields: [],
			emptyFieldsNotice: 'This template has no variables.',
		});
		expect((await fieldsOf('3')).fields.map((f) => [f.id, f.displayName])).toEqual([
			['1', 'Placeholder 1'],
			['2', 'Placeholder 2'],
		]);
		expect((await fieldsOf('99')).emptyFieldsNotice).toBe('The sender has no template with ID 99.');
		const none = pickerContext({ senderId: rl('1'), templateId: rl('') });
		expect(
			(await messaging.resourceMapping.getWhatsappTemplateVariables.call(none.ctx)).fields,
		).toEqual([]);
		expect(none.sent).toHaveLength(0);
	});
});
