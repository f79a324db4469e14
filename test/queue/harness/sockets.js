/**
 * Listening TCP sockets of a set of processes and their descendants, read
 * from /proc (no `ss` needed): [{pid, name, address, port}].
 */
const fs = require('fs');

function parentOf(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
	} catch {
		return undefined;
	}
}

function commandOf(pid) {
	try {
		return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
	} catch {
		return '?';
	}
}

/** The pids and every descendant. */
function processTree(rootPids) {
	const all = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
	const children = new Map();
	for (const pid of all) {
		const ppid = parentOf(pid);
		if (ppid === undefined) continue;
		if (!children.has(ppid)) children.set(ppid, []);
		children.get(ppid).push(pid);
	}
	const out = new Set();
	const stack = [...rootPids];
	while (stack.length) {
		const pid = stack.pop();
		if (out.has(pid)) continue;
		out.add(pid);
		stack.push(...(children.get(pid) || []));
	}
	return [...out];
}

function decodeAddress(hex) {
	const [addr, port] = hex.split(':');
	if (addr.length === 8) {
		const bytes = addr.match(/../g).map((b) => parseInt(b, 16)).reverse();
		return { address: bytes.join('.'), port: parseInt(port, 16) };
	}
	// IPv6: four little-endian 32-bit words
	const words = addr.match(/.{8}/g).map((w) => w.match(/../g).reverse().join(''));
	const groups = words.join('').match(/.{4}/g).map((g) => g.replace(/^0+(?=.)/, ''));
	return { address: groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::'), port: parseInt(port, 16) };
}

function listeningInodes() {
	const map = new Map();
	for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
		if (!fs.existsSync(file)) continue;
		for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
			const f = line.trim().split(/\s+/);
			if (f.length < 10 || f[3] !== '0A') continue; // 0A = LISTEN
			map.set(f[9], decodeAddress(f[1]));
		}
	}
	return map;
}

function listeningSockets(rootPids) {
	const listening = listeningInodes();
	const out = [];
	for (const pid of processTree(rootPids)) {
		let fds = [];
		try {
			fds = fs.readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue;
		}
		for (const fd of fds) {
			let link;
			try {
				link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
			} catch {
				continue;
			}
			const m = /^socket:\[(\d+)\]$/.exec(link);
			if (m && listening.has(m[1])) out.push({ pid, name: commandOf(pid), ...listening.get(m[1]) });
		}
	}
	return out;
}

const isLoopback = (address) => /^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address);

module.exports = { listeningSockets, processTree, isLoopback };
