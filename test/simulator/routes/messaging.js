'use strict';
/** The messaging endpoints. */

function register(router) {}

module.exports = { register };
