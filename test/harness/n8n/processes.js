/**
 * What /proc tells about processes (no `ps` or `ss` needed): stat fields,
 * command line, environment, descendants, listening TCP sockets. The free-port
 * helpers of test/helpers/ports.js are re-exported here.
 */
const fs = require('fs');
const { freePort, tcpOpen } = require('../../helpers/ports');

/** /proc/<pid>/stat: state, parent pid, start time (identifies a process across pid reuse); undefined when gone. */
function procStat(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// the command name may hold spaces and parentheses: fields start after the last ')'
		const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return { state: rest[0], ppid: Number(rest[1]), startTime: rest[19] };
	} catch {
		return undefined;
	}
}

/** Start time of a process (field 22 of /proc/<pid>/stat). */
function startTime(pid) {
	return procStat(pid)?.startTime;
}

/**
 * Whether the process recorded as {pid, startTime} still runs (not a recycled
 * pid); a zombie counts as gone unless `zombies`.
 */
function isAlive({ pid, startTime: start }, { zombies = false } = {}) {
	if (start === undefined) return false;
	const stat = procStat(pid);
	return Boolean(stat && stat.startTime === start && (zombies || stat.state !== 'Z'));
}

function cmdline(pid) {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
	} catch {
		return '';
	}
}

/** The short command name (/proc/<pid>/comm). */
function commandOf(pid) {
	try {
		return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
	} catch {
		return '?';
	}
}

function envOf(pid) {
	try {
		return Object.fromEntries(
			fs
				.readFileSync(`/proc/${pid}/environ`, 'utf8')
				.split('\0')
				.filter(Boolean)
				.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
		);
	} catch {
		return {};
	}
}

/** parent pid -> [{pid, state, ppid, startTime}] of every process now. */
function childrenByParent() {
	const children = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = procStat(entry);
		if (!stat) continue;
		if (!children.has(stat.ppid)) children.set(stat.ppid, []);
		children.get(stat.ppid).push({ pid: Number(entry), ...stat });
	}
	return children;
}

/** Every process below `root` now (not `root` itself), breadth first: [{pid, state, ppid, startTime}]. */
function descendants(root) {
	const children = childrenByParent();
	const found = [];
	const queue = [root];
	while (queue.length) {
		const pid = queue.shift();
		for (const child of children.get(pid) || []) {
			found.push(child);
			queue.push(child.pid);
		}
	}
	return found;
}

/** The pids and every descendant. */
function processTree(rootPids) {
	const children = childrenByParent();
	const out = new Set();
	const stack = [...rootPids];
	while (stack.length) {
		const pid = stack.pop();
		if (out.has(pid)) continue;
		out.add(pid);
		stack.push(...(children.get(pid) || []).map((c) => c.pid));
	}
	return [...out];
}

function decodeAddress(hex) {
	const [addr, port] = hex.split(':');
	if (addr.length === 8) {
		const bytes = addr
			.match(/../g)
			.map((b) => parseInt(b, 16))
			.reverse();
		return { address: bytes.join('.'), port: parseInt(port, 16) };
	}
	// IPv6: four little-endian 32-bit words
	const words = addr.match(/.{8}/g).map((w) => w.match(/../g).reverse().join(''));
	const groups = words
		.join('')
		.match(/.{4}/g)
		.map((g) => g.replace(/^0+(?=.)/, ''));
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

/** Listening TCP sockets of a set of processes and their descendants: [{pid, name, address, port}]. */
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

const isLoopback = (address) =>
	/^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address);

module.exports = {
	procStat,
	startTime,
	isAlive,
	cmdline,
	commandOf,
	envOf,
	descendants,
	processTree,
	listeningSockets,
	isLoopback,
	freePort,
	tcpOpen,
};
