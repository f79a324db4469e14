/** A WhatsApp template as the service lists it: approved, with two variables (Get Templates and the template pickers). */
export const orderUpdate = {
	id: 1,
	name: 'order_update',
	language: 'en',
	category: 'utility',
	status: 'approved',
	body_text: 'Hello {{1}}, order {{2}}',
	variables: ['customer_name', 'order_number'],
	has_variables: true,
};
