/*
 * The shipped examples (examples/*.json) are what a user imports: no credential,
 * no fixed IDs, files read from n8n's default file folder. try-it imports its
 * own copies of them, made here, ready to run against the simulator:
 *
 * - every Voice Chat Assistant node gets try-it's credential;
 * - an assistant, campaign or knowledgebase left to pick gets the simulator's
 *   first one (ID 1);
 * - a file path in n8n's file folder (FILES_DIR) points into try-it's n8n
 *   folder, where copyExampleFiles() put the example's files.
 */
'use strict';
const fs = require('fs');
const path = require('path');

const EXAMPLES_DIR = path.join(__dirname, '../examples');
/** Where the shipped examples read their files: n8n 2.x's default file folder in n8n's Docker image. */
const FILES_DIR = '/home/node/.n8n-files';
const PACKAGE = 'n8n-nodes-voice-chat-assistant';
/** The locators a user picks after importing, and the simulator's object that try-it picks. */
const PICKED_BY_TRY_IT = { assistantId: '1', campaignId: '1', knowledgebaseId: '1' };

/** The example workflows: file name and parsed workflow, by file name. */
function readExamples(dir = EXAMPLES_DIR) {
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) }));
}

/** The files of examples/ that are not workflows (the CSV and the document the examples read). */
function exampleDataFiles(dir = EXAMPLES_DIR) {
	return fs
		.readdirSync(dir)
		.filter((f) => !f.endsWith('.json'))
		.sort();
}

/** Copies the examples' data files into `folder` (try-it's n8n folder). */
function copyExampleFiles(folder, dir = EXAMPLES_DIR) {
	for (const file of exampleDataFiles(dir))
		fs.copyFileSync(path.join(dir, file), path.join(folder, file));
}

/** `value` with every empty picked locator filled and every FILES_DIR path moved to `folder`. */
function substitute(value, folder, key) {
	if (typeof value === 'string') return value.split(`${FILES_DIR}/`).join(`${folder}/`);
	if (Array.isArray(value)) return value.map((v) => substitute(v, folder));
	if (value && typeof value === 'object') {
		if (value.__rl === true && key in PICKED_BY_TRY_IT && String(value.value ?? '') === '') {
			return { __rl: true, mode: 'id', value: PICKED_BY_TRY_IT[key] };
		}
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, folder, k)]));
	}
	return value;
}

/**
 * try-it's copy of a shipped example: `credential` ({id, name}) on every node of
 * the package, the simulator's objects picked, files read from `folder`.
 */
function tryItCopy(workflow, { folder, credential }) {
	const copy = JSON.parse(JSON.stringify(workflow));
	copy.nodes = copy.nodes.map((node) => {
		const out = { ...node, parameters: substitute(node.parameters ?? {}, folder) };
		if (node.type.startsWith(`${PACKAGE}.`)) {
			out.credentials = {
				...node.credentials,
				voiceChatAssistantApi: { id: credential.id, name: credential.name },
			};
		}
		return out;
	});
	return copy;
}

module.exports = {
	EXAMPLES_DIR,
	FILES_DIR,
	PICKED_BY_TRY_IT,
	readExamples,
	exampleDataFiles,
	copyExampleFiles,
	tryItCopy,
};
