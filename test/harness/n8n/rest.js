/**
 * The one client of a running n8n's internal REST API: the editor's own calls
 * (JSON, the auth cookie of the login, the same browser-id on every request).
 */
const { OWNER } = require('./environment');

/** Requests that change nothing in n8n: safe to send once more after a failed connection. */
const READ_ONLY = (method, route) => method === 'GET' || /\/(node-types|login)$/.test(route);

/**
 * A client of the n8n at `baseUrl`, logged in as `owner` unless `login: false`.
 * - `setupOwner`: first claims a fresh instance as that owner (n8n 1.x, which
 *   cannot create the owner from the environment)
 * - `prefix`: put before the routes of get/post/patch/delete (default `/rest`;
 *   `''` to call e.g. `/types/nodes.json` as well)
 * - `browserId`: the browser-id header
 * - `makeError`: builds the error thrown for an answer that is not 2xx
 * Answers are the JSON's `data` when it has one, else the JSON.
 */
async function restClient(
	baseUrl,
	{
		owner = OWNER,
		email = owner.email,
		password = owner.password,
		setupOwner = false,
		login = true,
		prefix = '/rest',
		browserId = `e2e-${process.pid}-${Date.now()}`,
		makeError = (message) => new Error(message),
	} = {},
) {
	let cookie = '';
	/** One request to a path of the server (not prefixed). */
	const send = (method, route, body) =>
		fetch(`${baseUrl}${route}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': browserId,
				...(cookie ? { cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	/** A call to a path of the server (not prefixed): its answer's `data`, or its JSON. */
	const call = async (method, route, body) => {
		let res;
		try {
			res = await send(method, route, body);
		} catch (error) {
			// a kept-alive connection that n8n closed as the request went (its keep-alive timeout, a busy
			// machine) fails before n8n read it: requests that change nothing are sent once more
			const cause = error?.cause
				? ` (${error.cause.code ?? ''} ${error.cause.message ?? error.cause})`
				: '';
			if (!READ_ONLY(method, route))
				throw new Error(`${method} ${route}: ${error.message}${cause}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
			try {
				res = await send(method, route, body);
			} catch (again) {
				throw new Error(`${method} ${route}, sent twice: ${again.message}${cause}`);
			}
		}
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
		if (auth) cookie = auth;
		const text = await res.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		if (!res.ok)
			throw makeError(`${method} ${route} answered ${res.status}: ${text.slice(0, 500)}`);
		return json?.data ?? json;
	};
	/**
	 * The client's first calls, sent again on a 404 for up to 60 s: right after a restart, n8n 1.x
	 * once answered its owner setup with 404 although its login route was mounted (nothing was done).
	 */
	const first = async (route, body) => {
		for (const until = Date.now() + 60_000; ; ) {
			try {
				return await call('POST', route, body);
			} catch (error) {
				if (!/ answered 404: /.test(error.message) || Date.now() > until) throw error;
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
		}
	};
	if (setupOwner)
		await first('/rest/owner/setup', {
			email,
			password,
			firstName: owner.firstName,
			lastName: owner.lastName,
		});
	if (login) await first('/rest/login', { emailOrLdapLoginId: email, password });
	return {
		call,
		get: (route) => call('GET', prefix + route),
		post: (route, body) => call('POST', prefix + route, body),
		patch: (route, body) => call('PATCH', prefix + route, body),
		delete: (route) => call('DELETE', prefix + route),
		/** Deactivates a workflow in the running server, which removes its trigger's registration. */
		async deactivate(workflowId) {
			return await call('POST', `/rest/workflows/${workflowId}/deactivate`, {});
		},
		/** Activates (publishes) a workflow in the running server, which registers its trigger; both lines want the current versionId. */
		async activate(workflowId) {
			const workflow = await call('GET', `/rest/workflows/${workflowId}`);
			return await call('POST', `/rest/workflows/${workflowId}/activate`, {
				versionId: workflow.versionId,
			});
		},
		/**
		 * Publishes a changed version of an active workflow, as a user who edits it in the editor
		 * and saves: `edit(workflow)` changes the workflow read from the server (its nodes and
		 * connections are sent). n8n 1.x republishes an active workflow with the save itself
		 * (remove + add); 2.x saves a draft, which the publish (`activate` with the new versionId)
		 * puts live. Answers the workflow as published.
		 */
		async publish(workflowId, edit) {
			const workflow = await call('GET', `/rest/workflows/${workflowId}`);
			edit(workflow);
			const saved = await call('PATCH', `/rest/workflows/${workflowId}`, {
				versionId: workflow.versionId,
				name: workflow.name,
				nodes: workflow.nodes,
				connections: workflow.connections,
			});
			if (saved.activeVersionId === saved.versionId) return saved;
			return await call('POST', `/rest/workflows/${workflowId}/activate`, {
				versionId: saved.versionId,
			});
		},
		/**
		 * "Listen for test event" on a trigger, as the editor does: the manual run
		 * registers the trigger's test webhook and waits. 2.x reads the workflow from
		 * its database, 1.x takes it in the body.
		 */
		async listenForTestEvent(workflowId, triggerName) {
			const workflow = await call('GET', `/rest/workflows/${workflowId}`);
			return await call('POST', `/rest/workflows/${workflowId}/run`, {
				workflowData: workflow,
				triggerToStartFrom: { name: triggerName },
			});
		},
		/** Stops listening for a test event (the editor's stop button), which removes the test registration. */
		async stopListening(workflowId) {
			return await call('DELETE', `/rest/test-webhook/${workflowId}`);
		},
	};
}

module.exports = { restClient };
