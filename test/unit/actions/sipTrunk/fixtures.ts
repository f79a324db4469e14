/** A SIP trunk as the service returns it (never with a password). */
export const trunk = {
	id: 9,
	phone_number: '+4930123456',
	nickname: 'Office',
	sip_username: 'office-pbx',
	sip_address: 'sip.provider.example',
	sip_calling_format: '+e164',
	inbound_authorization_type: 'auth',
	allowed_inbound_ips: null,
	outbound_proxy: false,
	country_code: 'DE',
	created_at: '2026-01-01T10:00:00.000000Z',
	updated_at: '2026-01-01T10:00:00.000000Z',
};

export const withTrunkIds = {
	...trunk,
	inbound_trunk_id: 'ST_in_1',
	outbound_trunk_id: 'ST_out_1',
};
