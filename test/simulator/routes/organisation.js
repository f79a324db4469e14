'use strict';
/** The organisation endpoints. */

function register(router) {}

module.exports = { register };
