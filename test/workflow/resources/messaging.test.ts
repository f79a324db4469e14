/**
 * Messaging: SMS and WhatsApp, run as real workflows against the simulator,
 * which validates, records and charges every send the way the service does.
 */
import type { IDataObject } from 'n8n-workflow';

import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import { byId, control, simulatorForTests } from '../helpers/workflows';

const { exercised, operations } = operationRunner();

const OPEN_WINDOW = '+4915112345678';
const EXPIRED_WINDOW = '+4917612345678';
const round = (n: number) => Math.round(n * 10000) / 10000;
const mapper = (value: IDataObject | null) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: [],
});

// WhatsApp sends wait for their own limit (5 per second): a busy machine needs more than jest's 5 s
jest.setTimeout(30_000);

describe('SMS and WhatsApp: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests({}, { resetEach: true });
	const sms = operations(sim, 'sms');
	const whatsapp = operations(sim, 'whatsapp');
	const balance = () => sim.state.user.total_balance as number;

	it('SMS: Send charges per segment and records the SMS; refusals of the service come through', async () => {
		const before = balance();
		const text = `Your appointment is confirmed. ${'Details follow. '.repeat(10)}`.trim();
		const [sent] = await sms('send', {
			fromNumberId: byId(1),
			to: '+49 151 1234 5678',
			body: text,
		});
		expect(sent).toMatchObject({
			message: 'SMS sent successfully',
			from: '+14155550101',
			to: OPEN_WINDOW,
			segments: 2,
			status: 'sent',
		});
		expect(round(before - balance())).toBe(sent.cost);
		expect(sim.state.smsMessages).toEqual([
			expect.objectContaining({ sms_id: sent.sms_id, phone_number_id: 1, body: text }),
		]);

		/** A send from number `from` to a customer whose window is open. */
		const send = (from: number, body = 'Hi') =>
			sms('send', { fromNumberId: byId(from), to: OPEN_WINDOW, body });
		for (const [from, body, refusal] of [
			[3, 'Hi', 'Phone number is not SMS-capable'],
			[6, 'Hi', 'Phone number subscription is not active'],
			[99, 'Hi', 'From number not found'],
			[1, 'x'.repeat(301), 'at most 300 are allowed'],
		] as const) {
			await expect(send(from, body)).rejects.toThrow(refusal);
		}
		await control(sim, 'user', { total_balance: 0 });
		await expect(send(2)).rejects.toThrow('Insufficient balance to send SMS');
		expect(sim.state.smsMessages).toHaveLength(1);
	});

	it('SMS: one SMS per input row from expressions, each sent once', async () => {
		const rows = [
			{ phone: '+14155559876', text: 'Hello Jane' },
			{ phone: '+14155559877', text: 'Hello John' },
		];
		const sent = await sms(
			'send',
			{ fromNumberId: byId(2), to: '={{ $json.phone }}', body: '={{ $json.text }}' },
			{ rows },
		);
		expect(sent.map((s) => [s.to, s.body, s.cost])).toEqual([
			['+14155559876', 'Hello Jane', 0.01],
			['+14155559877', 'Hello John', 0.01],
		]);
		expect(sim.log.filter((e) => e.path === '/api/user/sms')).toHaveLength(2);
	});

	it('WhatsApp: Get Senders (online by default, all, limit) and Get Templates (approved by default, all)', async () => {
		expect((await whatsapp('getSenders', { returnAll: true })).map((s) => s.id)).toEqual([1]);
		const all = await whatsapp('getSenders', { senderStatus: 'all', returnAll: true });
		expect(all.map((s) => [s.id, s.status])).toEqual([
			[1, 'online'],
			[2, 'offline'],
		]);
		expect(
			await whatsapp('getSenders', { senderStatus: 'all', returnAll: false, limit: 1 }),
		).toHaveLength(1);

		const approved = await whatsapp('getTemplates', { senderId: byId(1), returnAll: true });
		expect(approved.map((t) => [t.name, t.variables])).toEqual([
			['order_update', ['customer_name', 'order_number']],
			['welcome', []],
		]);
		const every = await whatsapp('getTemplates', {
			senderId: byId(1),
			templateStatus: 'all',
			returnAll: true,
		});
		expect(every.map((t) => t.status)).toEqual(['approved', 'approved', 'pending', 'rejected']);
		await expect(whatsapp('getTemplates', { senderId: byId(9), returnAll: true })).rejects.toThrow(
			'Sender not found',
		);
	});

	it('WhatsApp: Get Session Status of an open, an expired and an unknown customer (the "+" arrives)', async () => {
		const [open] = await whatsapp('getSessionStatus', {
			senderId: byId(1),
			recipientPhone: OPEN_WINDOW,
		});
		expect(open).toMatchObject({
			has_conversation: true,
			customer_name: 'Ada Lovelace',
			session_status: { is_open: true, can_send_freeform: true },
		});
		expect(sim.log.at(-1)!.query).toEqual({ sender_id: '1', recipient_phone: OPEN_WINDOW });
		const [expired] = await whatsapp('getSessionStatus', {
			senderId: byId(1),
			recipientPhone: EXPIRED_WINDOW,
		});
		expect(expired.session_status).toMatchObject({ is_open: false, requires_template: true });
		const [unknown] = await whatsapp('getSessionStatus', {
			senderId: byId(1),
			recipientPhone: '+14155550000',
		});
		expect(unknown).toMatchObject({
			has_conversation: false,
			session_status: { requires_template: true },
		});
	});

	it('WhatsApp: Send Template fills the variables by name or position, charges and records; refusals', async () => {
		const before = balance();
		const [sent] = await whatsapp('sendTemplate', {
			senderId: byId(1),
			templateId: byId(1),
			templateVariables: mapper({ customer_name: 'Ada', order_number: 'A-17' }),
			recipientPhone: OPEN_WINDOW,
			options: { recipientName: 'Ada L.' },
		});
		expect(sent).toMatchObject({ conversation_id: 1, status: 'queued' });
		expect(sent.success).toBeUndefined();
		expect(sim.state.whatsappMessages).toEqual([
			expect.objectContaining({
				id: sent.message_id,
				type: 'template',
				to: OPEN_WINDOW,
				content: 'Hello Ada, your order A-17 has shipped.',
			}),
		]);
		expect(round(before - balance())).toBe(0.02);

		// a new customer by position keys: a new conversation
		const [second] = await whatsapp('sendTemplate', {
			senderId: byId(1),
			templateId: byId(1),
			templateVariables: mapper(null),
			recipientPhone: '+14155550000',
			options: { variablesJson: '{"1": "Grace", "2": "B-2"}' },
		});
		expect(second.conversation_id).not.toBe(1);
		expect(sim.state.whatsappMessages.at(-1).content).toBe(
			'Hello Grace, your order B-2 has shipped.',
		);

		const send = (change: IDataObject) =>
			whatsapp('sendTemplate', {
				senderId: byId(1),
				templateId: byId(2),
				templateVariables: mapper(null),
				recipientPhone: OPEN_WINDOW,
				options: {},
				...change,
			});
		await expect(send({ templateId: byId(3) })).rejects.toThrow('Template is not approved');
		await expect(send({ senderId: byId(2), templateId: byId(4) })).rejects.toThrow(
			'The sender is offline',
		);
		await expect(send({ senderId: byId(2) })).rejects.toThrow('Template not found');
		await expect(send({ templateId: byId(1) })).rejects.toThrow('Template variables missing');
		await control(sim, 'user', { total_balance: 0 });
		await expect(send({})).rejects.toThrow('Insufficient balance');
		expect(sim.state.whatsappMessages).toHaveLength(2);
	});

	it('WhatsApp: Send Freeform inside the window is charged and recorded; an expired window is refused', async () => {
		const before = balance();
		const [sent] = await whatsapp('sendFreeform', {
			senderId: byId(1),
			recipientPhone: OPEN_WINDOW,
			message: 'Your parcel arrives today.',
		});
		expect(sent).toMatchObject({ conversation_id: 1, session_status: { is_open: true } });
		expect(sim.state.whatsappMessages).toEqual([
			expect.objectContaining({
				type: 'freeform',
				content: 'Your parcel arrives today.',
				to: OPEN_WINDOW,
			}),
		]);
		expect(round(before - balance())).toBe(0.005);

		const error = await whatsapp('sendFreeform', {
			senderId: byId(1),
			recipientPhone: EXPIRED_WINDOW,
			message: 'Hi',
		}).catch((e) => e);
		expect(error.message).toContain('24-hour session has expired');
		expect(error.description).toContain('SESSION_EXPIRED');
		expect(sim.state.whatsappMessages).toHaveLength(1);
	});

	it('ran every operation of SMS and WhatsApp', () => {
		expect(ownRuns('messaging', exercised)).toEqual([...RESOURCE_FILES.messaging].sort());
	});
});
