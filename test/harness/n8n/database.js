/**
 * n8n's sqlite database of a home, written without a boot of n8n: a database with every migration
 * done for a new home, credentials and new workflows saved as n8n's `import:credentials` and
 * `import:workflow` save them.
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

/** n8n's sqlite files of a home: the database and its write-ahead log (when n8n left one). */
const DATABASE_FILES = ['database.sqlite', 'database.sqlite-wal'];

/**
 * Gives a new home n8n's database with every migration done. A fresh home's first CLI command
 * runs all of n8n's migrations (about 3 s of a core, in every e2e file and on both lines); they run
 * once per runtime instead: the first home runs `list:workflow` (it writes nothing else) and keeps
 * a copy of the database beside the runtime, which later homes start from.
 */
async function seedDatabase(folder, runtime, cli) {
	const templateDir = path.join(runtime.N8N_RUNTIME_DIR, 'database-template');
	const dataDir = path.join(folder, '.n8n');
	if (fs.existsSync(path.join(templateDir, DATABASE_FILES[0]))) {
		for (const file of DATABASE_FILES) {
			if (fs.existsSync(path.join(templateDir, file)))
				fs.copyFileSync(path.join(templateDir, file), path.join(dataDir, file));
		}
		return;
	}
	const result = await cli(['list:workflow']);
	if (result.code !== 0 || !fs.existsSync(path.join(dataDir, DATABASE_FILES[0]))) return;
	// another process may make it at the same time: each writes a folder of its own, the first rename wins
	const made = fs.mkdtempSync(`${templateDir}-`);
	for (const file of DATABASE_FILES) {
		if (fs.existsSync(path.join(dataDir, file)))
			fs.copyFileSync(path.join(dataDir, file), path.join(made, file));
	}
	try {
		fs.renameSync(made, templateDir);
	} catch {
		fs.rmSync(made, { recursive: true, force: true });
	}
}

/**
 * Credential data as n8n stores it (n8n-core's Cipher, both lines): "Salted__", an 8-byte salt and
 * AES-256-CBC with the key and IV derived from the instance's encryption key by MD5 (OpenSSL's
 * EVP_BytesToKey), in base64.
 */
function encryptCredentialData(data, encryptionKey) {
	const salt = crypto.randomBytes(8);
	const password = Buffer.concat([Buffer.from(encryptionKey, 'binary'), salt]);
	const md5 = (...parts) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();
	const hash1 = md5(password);
	const hash2 = md5(hash1, password);
	const iv = md5(hash2, password);
	const cipher = crypto.createCipheriv('aes-256-cbc', Buffer.concat([hash1, hash2]), iv);
	const encrypted = Buffer.concat([cipher.update(JSON.stringify(data)), cipher.final()]);
	return Buffer.concat([Buffer.from('Salted__'), salt, encrypted]).toString('base64');
}

const quote = (value) => `'${String(value).replace(/'/g, "''")}'`;

/**
 * Saves credentials in the home's database for the owner's personal project, as `import:credentials`
 * does (a credential with the same id is overwritten). False when the home has no database yet.
 */
function writeCredentials(home, credentials) {
	if (!fs.existsSync(path.join(home.folder, '.n8n', DATABASE_FILES[0]))) return false;
	const statements = credentials.map(({ id, name, type, data }) => {
		const values = [id, name, encryptCredentialData(data, home.env.N8N_ENCRYPTION_KEY), type]
			.map(quote)
			.join(', ');
		return `insert into credentials_entity (id, name, data, type) values (${values})
			on conflict(id) do update set name = excluded.name, data = excluded.data, type = excluded.type,
				updatedAt = strftime('%Y-%m-%d %H:%M:%f', 'now');
			insert or ignore into shared_credentials (credentialsId, projectId, role)
				select ${quote(id)}, id, 'credential:owner' from project where type = 'personal'
				order by createdAt limit 1;`;
	});
	home.queryDb(statements.join('\n'));
	const ids = credentials.map((c) => quote(c.id)).join(', ');
	const saved = home.queryDb(
		`select count(*) as n from credentials_entity c join shared_credentials s on s.credentialsId = c.id where c.id in (${ids})`,
	);
	if (saved[0]?.n !== new Set(credentials.map((c) => c.id)).size)
		throw new Error(`saving credentials ${ids}: ${saved[0]?.n} found in n8n's database`);
	return true;
}

const json = (value) =>
	value === undefined || value === null ? 'null' : quote(JSON.stringify(value));

/** Whether `import:workflow` would write the workflows as they are: new ids, credential ids, no tags. */
function writableAsIs(home, workflows) {
	const plain = workflows.every(
		(wf) =>
			!wf.tags?.length &&
			wf.nodes.every((node) =>
				Object.values(node.credentials ?? {}).every((c) => c && typeof c === 'object' && c.id),
			),
	);
	if (!plain) return false;
	const ids = workflows.map((wf) => quote(wf.id)).join(', ');
	return home.queryDb(`select id from workflow_entity where id in (${ids})`).length === 0;
}

/**
 * Saves new workflows in the home's database, inactive, for the owner's personal project, with
 * their first version in the history, as `import:workflow` writes them (both lines). False, and
 * nothing written, when the home has no database yet or the import would do more (writableAsIs).
 */
function writeWorkflows(home, workflows) {
	if (!fs.existsSync(path.join(home.folder, '.n8n', DATABASE_FILES[0]))) return false;
	if (!writableAsIs(home, workflows)) return false;
	const statements = workflows.map((wf) => {
		// n8n gives a node without an id a new one (the caller's object is left as it is)
		wf = {
			...wf,
			nodes: wf.nodes.map((node) => (node.id ? node : { ...node, id: crypto.randomUUID() })),
		};
		const versionId = quote(crypto.randomUUID());
		const id = quote(wf.id);
		const nodes = json(wf.nodes);
		const connections = json(wf.connections ?? {});
		return `insert into workflow_entity (id, name, active, nodes, connections, settings, staticData, pinData, versionId, triggerCount, meta)
				values (${id}, ${quote(wf.name ?? wf.id)}, 0, ${nodes}, ${connections}, ${json(wf.settings ?? {})}, ${json(wf.staticData)}, ${json(wf.pinData)}, ${versionId}, 0, ${json(wf.meta)});
			insert into shared_workflow (workflowId, projectId, role)
				select ${id}, id, 'workflow:owner' from project where type = 'personal' order by createdAt limit 1;
			insert into workflow_history (versionId, workflowId, authors, nodes, connections)
				values (${versionId}, ${id}, 'import', ${nodes}, ${connections});`;
	});
	home.queryDb(`begin;\n${statements.join('\n')}\ncommit;`);
	const ids = workflows.map((wf) => quote(wf.id)).join(', ');
	const saved = home.queryDb(
		`select count(*) as n from workflow_entity w join shared_workflow s on s.workflowId = w.id join workflow_history h on h.versionId = w.versionId where w.id in (${ids})`,
	);
	if (saved[0]?.n !== workflows.length)
		throw new Error(`saving workflows ${ids}: ${saved[0]?.n} found in n8n's database`);
	return true;
}

module.exports = { seedDatabase, writeCredentials, writeWorkflows, encryptCredentialData };
