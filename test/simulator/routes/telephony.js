'use strict';
/** The telephony endpoints. */

function register(router) {}

module.exports = { register };
