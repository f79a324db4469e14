/** What the Lead → Create test files share: the campaign picked, a stored lead and the service's duplicate answer. */
export const campaign = { __rl: true, mode: 'list', value: '7' };
export const lead = (id: number, phone: string) => ({
	id,
	campaign_id: 7,
	phone_number: phone,
	variables: {},
	status: 'created',
	created_at: '2026-11-22 10:00:00',
	updated_at: '2026-11-22 10:00:00',
	campaign: { id: 7, name: 'Spring' },
	secondary_contacts: [],
});
export const duplicate = {
	message: 'The given data was invalid.',
	errors: { phone_number: ['A lead with this phone number already exists in this campaign.'] },
};
