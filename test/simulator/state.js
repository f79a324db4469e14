'use strict';
/**
 * The simulator's in-memory state: one plain JSON-serialisable object (GET /__sim/state
 * returns it as it is). Records are stored in an internal form; each route module
 * presents them in the API's shape.
 */
const { accountFixtures, sampleData } = require('./seed');

const COLLECTIONS = ['assistants', 'knowledgebases', 'documents', 'tools', 'leads', 'calls', 'conversations'];

function createState({ seed = true, baseUrl = null } = {}) {
	const now = Date.now();
	const state = {
		meta: { baseUrl, seeded: Boolean(seed), created_at: new Date(now).toISOString() },
		...accountFixtures(now),
	};
	for (const name of COLLECTIONS) state[name] = [];
	if (seed) sampleData(state, now);
	state.nextIds = {};
	for (const name of [...COLLECTIONS, 'phoneNumbers', 'apiKeys', 'campaigns']) {
		state.nextIds[name] = state[name].reduce((max, r) => (typeof r.id === 'number' && r.id > max ? r.id : max), 0) + 1;
	}
	state.nextIds.secondaryContacts = 1;
	return state;
}

/** Takes the next integer id of a collection. */
function nextId(state, collection) {
	const id = state.nextIds[collection] || 1;
	state.nextIds[collection] = id + 1;
	return id;
}

module.exports = { createState, nextId };
