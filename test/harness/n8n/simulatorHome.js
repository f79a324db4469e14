/**
 * What most e2e files start with: the simulator, an n8n home with the
 * package, and the credential of the simulator imported into it.
 */
const { startSimulator } = require('../../simulator/server');
const { createN8nHome } = require('./home');

/** The simulator's API key in the e2e tests. */
const SIM_KEY = 'sim-test-key-0123456789';

/**
 * A credential of the simulator (voiceChatAssistantApi): `simCredential001`
 * named "sim" unless told, with `data` added to the key and the base URL.
 */
function simCredential(sim, { id = 'simCredential001', name = 'sim', data = {} } = {}) {
	return {
		id,
		name,
		type: 'voiceChatAssistantApi',
		data: { apiKey: SIM_KEY, baseUrl: sim.url, ...data },
	};
}

/** Credential data whose own rate limit never holds a request back (a workflow of many requests). */
const UNTHROTTLED = { requestsPerMinute: 100000, burst: 100000 };

/**
 * Starts the simulator (no rate limit unless `simulator` says) and an n8n
 * home holding `credentials(sim)`, by default the one simCredential (with
 * `credentialData` added to its data).
 */
async function startSimulatorAndHome({ simulator = {}, credentials, credentialData } = {}) {
	const sim = await startSimulator({ port: 0, rateLimit: false, ...simulator });
	const home = await createN8nHome();
	await home.importCredentials(
		credentials ? credentials(sim) : [simCredential(sim, { data: credentialData })],
	);
	return { sim, home };
}

module.exports = { SIM_KEY, UNTHROTTLED, simCredential, startSimulatorAndHome };
