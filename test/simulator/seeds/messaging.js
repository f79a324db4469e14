'use strict';
/**
 * State of the messaging endpoints: called by createState with the state built so far.
 * `seeded` is false for an empty simulator (no sample data).
 */
function seed(state, { seeded, now }) {}

module.exports = { seed };
