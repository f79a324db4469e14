'use strict';
/** Profile and API keys: GET /api/user/me, GET /api/user/api-keys. */

function register(router) {
	router.get('/api/user/me', ({ state }) => ({
		status: 200,
		body: {
			name: state.user.name,
			email: state.user.email,
			total_balance: state.user.total_balance,
		},
	}));

	router.get('/api/user/api-keys', ({ state }) => ({
		status: 200,
		body: {
			api_keys: state.apiKeys.map((k) => ({
				id: k.id,
				name: k.name,
				last_used_at: k.last_used_at,
				created_at: k.created_at,
			})),
		},
	}));
}

module.exports = { register };
