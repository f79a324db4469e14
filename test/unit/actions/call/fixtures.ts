/** Calls as the service returns them, shared by the Call → Get and Get Many tests. */
export const call = (id: number) => ({
	id,
	assistant_name: 'Reception',
	type: 'inbound',
	status: 'completed',
	duration: 42,
});

/** A call with only its ID, type (outbound) and status. */
export const outboundCall = (id: number) => ({ id, type: 'outbound', status: 'completed' });
