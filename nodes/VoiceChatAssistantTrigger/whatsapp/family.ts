import type { EventFamily } from '../core/family';
import { WHATSAPP_STATUS, activateWhatsappStatus, whatsappStatusRequest } from './whatsappStatus';

/** The WhatsApp message statuses: set up in the dashboard, signed posts; nothing to register. */
export const whatsappFamily: EventFamily = {
	events: [WHATSAPP_STATUS],
	registered: () => false,
	// set up in the dashboard: nothing to ask the service; create checks the form
	checkExists: async () => false,
	// nothing to register: the form and the secret are checked, so a missing one fails activation
	create: async (ctx) => {
		await activateWhatsappStatus(ctx);
		return true;
	},
	remove: async () => true,
	webhook: whatsappStatusRequest,
};
