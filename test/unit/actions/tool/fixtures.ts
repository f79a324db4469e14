/** The tool record and the Create parameters shared by the Mid Call Tool tests. */
export const toolRef = { __rl: true, mode: 'id', value: '3' };
/** The required fields of Create, as the parameters give them and the body sends them. */
export const createBody = {
	name: 'check_availability',
	description: 'Checks free slots',
	endpoint: 'https://api.example.com/a',
	method: 'POST',
};
export const tool = { id: 3, ...createBody, timeout: 10, headers: [], schema: [] };
export const createParams = { resource: 'tool', operation: 'create', ...createBody };
