/** Ports on 127.0.0.1, where the harnesses' servers listen. */
const net = require('net');

/** A TCP port free at the moment of asking. */

function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
		server.on('error', reject);
	});
}

/** Resolves true if something accepts connections on the port. */
function tcpOpen(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

module.exports = { freePort, tcpOpen };
