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

/** What SIP Trunk → Create takes and sends unchanged, for a trunk of type number. */
const asSent = {
	sip_trunk_type: 'number',
	phone_number: '+4930123456',
	sip_username: 'office-pbx',
	sip_password: 'TopSecret-99',
	sip_address: 'sip.provider.example',
	sip_calling_format: '+e164',
	inbound_authorization_type: 'auth',
};

/** Node parameters of SIP Trunk → Create for a trunk of type number. */
export const createParameters = {
	resource: 'sipTrunk',
	operation: 'create',
	...asSent,
	allowed_inbound_ips: '',
	country_code: 'de',
	additionalFields: {},
};

/** The body those parameters send. */
export const createBody = { ...asSent, country_code: 'DE', outbound_proxy: false };
