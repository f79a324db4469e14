'use strict';
/**
 * The simulator's in-memory state: one plain JSON-serialisable object (GET /__sim/state
 * returns it as it is). Records are stored in an internal form; each route module
 * presents them in the API's shape.
 */
const { accountFixtures, sampleData } = require('./seed');

/** The state of the endpoints beyond the API contract (those docs/api.md does not list), each area in its own file. */
const AREA_SEEDS = ['messaging', 'telephony', 'organisation'].map((name) =>
	require(`./seeds/${name}`),
);

const COLLECTIONS = [
	'assistants',
	'knowledgebases',
	'documents',
	'tools',
	'leads',
	'calls',
	'conversations',
];

function createState({ seed = true, baseUrl = null, recordingBaseUrl = null } = {}) {
	const now = Date.now();
	const state = {
		meta: {
			baseUrl,
			recordingBaseUrl,
			seeded: Boolean(seed),
			created_at: new Date(now).toISOString(),
		},
		...accountFixtures(now),
	};
	for (const name of COLLECTIONS) state[name] = [];
	if (seed) sampleData(state, now);
	for (const area of AREA_SEEDS) area.seed(state, { seeded: Boolean(seed), now });
	state.nextIds = {};
	// every collection of records with integer ids continues after its highest id
	for (const [name, value] of Object.entries(state)) {
		if (!Array.isArray(value) || !value.some((r) => r && typeof r.id === 'number')) continue;
		state.nextIds[name] =
			value.reduce((max, r) => (r && typeof r.id === 'number' && r.id > max ? r.id : max), 0) + 1;
	}
	for (const name of COLLECTIONS) state.nextIds[name] = state.nextIds[name] || 1;
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
