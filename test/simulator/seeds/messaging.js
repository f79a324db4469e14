'use strict';
/**
 * State of the messaging endpoints: called by createState with the state built so far.
 * `seeded` is false for an empty simulator (no sample data).
 *
 * WhatsApp senders and their templates are set up in the dashboard (the API cannot create
 * them), so they exist like the phone numbers even without sample data:
 *   sender 1 "Acme Support" online; templates 1 order_update (approved, 2 variables),
 *     2 welcome (approved, no variables), 3 spring_promo (pending), 5 old_offer (rejected)
 *   sender 2 "Acme Sales" offline; template 4 appointment_reminder (approved, 2 variables)
 * With sample data, sender 1 has two WhatsApp conversations: +4915112345678 (Ada) wrote
 * 2 hours ago (24 h window open), +4917612345678 (Bob) wrote 30 hours ago (window expired).
 *
 * Collections: whatsappSenders, whatsappTemplates, whatsappConversations (integer ids),
 * whatsappMessages (sent messages), smsMessages (sent SMS).
 */
const { iso } = require('../util');

const HOUR = 3600000;

/** Fixed customers of the seeded WhatsApp conversations. */
const WHATSAPP_SEED = {
	openWindowPhone: '+4915112345678',
	expiredWindowPhone: '+4917612345678',
};

function seed(state, { seeded, now }) {
	state.whatsappSenders = [
		{
			id: 1,
			phone_number: '+4930555000100',
			display_name: 'Acme Support',
			status: 'online',
			quality_rating: 'GREEN',
			messaging_limit: 1000,
			messaging_limit_formatted: '1K',
			assistant_id: 1,
		},
		{
			id: 2,
			phone_number: '+4930555000200',
			display_name: 'Acme Sales',
			status: 'offline',
			quality_rating: 'YELLOW',
			messaging_limit: null,
			messaging_limit_formatted: 'Unlimited',
			assistant_id: 2,
		},
	];
	state.whatsappTemplates = [
		{
			id: 1,
			sender_id: 1,
			name: 'order_update',
			language: 'en',
			category: 'utility',
			status: 'approved',
			body_text: 'Hello {{1}}, your order {{2}} has shipped.',
			variables: ['customer_name', 'order_number'],
		},
		{
			id: 2,
			sender_id: 1,
			name: 'welcome',
			language: 'en',
			category: 'marketing',
			status: 'approved',
			body_text: 'Welcome to Acme! Reply to this message to chat with us.',
			variables: [],
		},
		{
			id: 3,
			sender_id: 1,
			name: 'spring_promo',
			language: 'de',
			category: 'marketing',
			status: 'pending',
			body_text: 'Hallo {{1}}, unser Frühlingsangebot wartet auf dich.',
			variables: ['first_name'],
		},
		{
			id: 4,
			sender_id: 2,
			name: 'appointment_reminder',
			language: 'pt_BR',
			category: 'utility',
			status: 'approved',
			body_text: 'Olá {{1}}, lembrete da sua consulta em {{2}}.',
			variables: ['name', 'date'],
		},
		{
			id: 5,
			sender_id: 1,
			name: 'old_offer',
			language: 'en',
			category: 'marketing',
			status: 'rejected',
			body_text: 'Buy now!',
			variables: [],
		},
	];
	state.whatsappConversations = [];
	state.whatsappMessages = [];
	state.smsMessages = [];
	if (!seeded) return;
	/** A chat with sender 1: the customer wrote last `lastHours` ago, first `createdHours` ago. */
	const conversation = (id, customer_phone, customer_name, lastHours, createdHours) => ({
		id,
		sender_id: 1,
		customer_phone,
		customer_name,
		last_customer_message_at: iso(now - lastHours * HOUR),
		created_at: iso(now - createdHours * HOUR),
	});
	state.whatsappConversations.push(
		conversation(1, WHATSAPP_SEED.openWindowPhone, 'Ada Lovelace', 2, 3),
		conversation(2, WHATSAPP_SEED.expiredWindowPhone, 'Bob Builder', 30, 48),
	);
}

module.exports = { seed, WHATSAPP_SEED };
