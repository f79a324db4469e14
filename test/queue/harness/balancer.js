/**
 * A load balancer in front of n8n's webhook processes, as n8n's scale-out
 * guide puts one: requests go to the processes in turn (round robin). Like a
 * Kubernetes Service or Traefik without health checks, and unlike nginx's
 * default `proxy_next_upstream error`, it does not try the next process when
 * one cannot be reached: the caller gets `502 Bad Gateway`. That is the
 * harder case for the trigger (the service records the 502 as the call's
 * webhook answer), so the suite uses it.
 */
const http = require('http');

/**
 * Starts the balancer on 127.0.0.1 (`port`, or a free one) over `backends`
 * (ports on 127.0.0.1; settable later with `setBackends`). Returns its URL,
 * the log of what it forwarded, and `close()`.
 */
async function startBalancer({ port = 0, backends = [] } = {}) {
	let targets = [...backends];
	let next = 0;
	/** Every request: when, its path, the backend port it went to, the status it got. */
	const log = [];
	const server = http.createServer((req, res) => {
		if (!targets.length) {
			res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
			return;
		}
		const target = targets[next++ % targets.length];
		const entry = { at: Date.now(), path: req.url, backend: target, status: null };
		log.push(entry);
		const upstream = http.request(
			{
				host: '127.0.0.1',
				port: target,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress },
				agent: false,
			},
			(answer) => {
				entry.status = answer.statusCode;
				res.writeHead(answer.statusCode, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			entry.error = error.code || error.message;
			if (res.headersSent) {
				res.destroy();
				return;
			}
			entry.status = 502;
			res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
		});
		req.pipe(upstream);
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const address = server.address();
	return {
		port: address.port,
		url: `http://127.0.0.1:${address.port}`,
		log,
		setBackends(ports) {
			targets = [...ports];
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startBalancer };
