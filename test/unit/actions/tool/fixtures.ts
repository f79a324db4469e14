/** The tool record and the Create parameters shared by the Mid Call Tool tests. */
export const toolRef = { __rl: true, mode: 'id', value: '3' };
export const tool = {
	id: 3,
	name: 'check_availability',
	description: 'Checks free slots',
	endpoint: 'https://api.example.com/a',
	method: 'POST',
	timeout: 10,
	headers: [],
	schema: [],
};
export const createParams = {
	resource: 'tool',
	operation: 'create',
	name: 'check_availability',
	description: 'Checks free slots',
	endpoint: 'https://api.example.com/a',
	method: 'POST',
};
