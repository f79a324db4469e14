'use strict';
/** Lets `node --test test/simulator/` find the self-test (Node 20 only picks *.test.js files there). */
require('./selftest');
require('./selftestFlows');
