/**
 * Peak memory of a 20 MB upload through a real n8n: `n8n execute` runs a
 * workflow that reads a 20 MB PDF from disk and uploads it to the simulator;
 * its peak RSS (GNU time) is compared with the same workflow reading the file
 * without uploading it, and with an idle run (Manual Trigger only).
 * Run: node bench/upload-memory.js
 */
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

/** Runs a command without blocking this process (the simulator lives here). */
function run(cmd, args, options) {
	return new Promise((resolve) => {
		const child = spawn(cmd, args, options);
		let stderr = '';
		child.stderr.on('data', (d) => (stderr += d));
		child.stdout.resume();
		child.on('close', (status) => resolve({ status, stderr }));
	});
}
const { createN8nHome, credential, connections, manualTriggerNode, rl, credentialRef, TYPE } = require('../test/harness/n8n');
const { startSimulator } = require('../test/simulator/server');

const SIZE = 20 * 1024 * 1024 - 1024;

async function main() {
	const sim = await startSimulator({ port: 0, rateLimit: false });
	const home = await createN8nHome();
	const { runtime } = home;
	home.env.N8N_RESTRICT_FILE_ACCESS_TO = home.folder;
	await home.importCredentials([credential('memCredential001', sim.url, { name: 'm' })]);
	const file = path.join(home.folder, 'big.pdf');
	const buf = Buffer.alloc(SIZE, 0x41);
	buf.write('%PDF-1.4\n');
	fs.writeFileSync(file, buf);
	const start = manualTriggerNode();
	const read = { id: 'r', name: 'Read', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1, position: [200, 0], parameters: { operation: 'read', fileSelector: file } };
	const upload = {
		id: 'u', name: 'Upload', type: TYPE, typeVersion: 1, position: [400, 0],
		credentials: credentialRef('memCredential001', 'm'),
		parameters: { resource: 'document', operation: 'create', knowledgebaseId: rl(1), name: 'Big', type: 'auto', binaryPropertyName: 'data' },
	};
	const variants = { idle: [start], read: [start, read], upload: [start, read, upload] };
	const peak = {};
	const status = {};
	for (const [name, nodes] of Object.entries(variants)) {
		const id = await home.importWorkflow({ id: `memory${name.padEnd(10, '0')}`, name, nodes, connections: connections(nodes) });
		const result = await run('/usr/bin/time', ['-f', 'MAXRSS %M', runtime.N8N_NODE_BIN, runtime.N8N_BIN, 'execute', `--id=${id}`], { env: home.env, cwd: home.folder });
		const match = /MAXRSS (\d+)/.exec(result.stderr) || [];
		peak[name] = Number(match[1]) / 1024;
		status[name] = result.status;
		if (result.status !== 0) console.error(`${name}: ${fs.readFileSync(home.logFile, 'utf8').split('\n').filter((l) => /error|Error/.test(l)).slice(-3).join('\n').slice(0, 1500)}`);
	}
	const uploads = sim.log.filter((e) => e.method === 'POST' && /\/documents$/.test(e.path) && e.status === 201).length;
	const mb = SIZE / (1024 * 1024);
	const lines = [
		`file ${mb.toFixed(1)} MB; peak RSS: idle ${peak.idle.toFixed(0)} MB, read only ${peak.read.toFixed(0)} MB, read + upload ${peak.upload.toFixed(0)} MB; uploads accepted ${uploads}; exit codes ${JSON.stringify(status)}`,
		`growth of the upload over idle: ${(peak.upload - peak.idle).toFixed(0)} MB = ${((peak.upload - peak.idle) / mb).toFixed(2)} x file size; over read-only: ${((peak.upload - peak.read) / mb).toFixed(2)} x`,
	];
	console.log(lines.join('\n'));
	fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
	fs.writeFileSync(path.join(__dirname, 'results', 'upload-memory.txt'), lines.join('\n') + '\n');
	await sim.close();
	home.cleanup();
}
main().catch((e) => {
	console.error(e);
	process.exit(1);
});
