'use strict';
/**
 * Knowledgebases and their documents. Errors use the `{error}` shape of SPEC's error table.
 *
 *   GET/POST       /api/user/knowledgebases
 *   GET/PUT/DELETE /api/user/knowledgebases/:id
 *   GET/POST       /api/user/knowledgebases/:kb/documents         (POST: JSON or multipart/form-data)
 *   GET/PUT/DELETE /api/user/knowledgebases/:kb/documents/:doc
 *
 * A new document is `processing`; after `docProcessingMs` it becomes `active`, or `failed`
 * when its name contains "fail". Name `__fail_create__` answers the 500 of document creation,
 * a document whose name contains `__fail_delete__` answers the 500 of deletion, and a
 * knowledgebase named `__fail_create__` the 500 of knowledgebase creation.
 */
const { Validator, INVALID } = require('../validate');
const { HttpError, created, has, iso, intId } = require('../util');
const { nextId } = require('../state');
const {
	DOCUMENT_TYPES,
	FILE_DOCUMENT_TYPES,
	DOCUMENT_TYPE_LABELS,
	STATUS_LABELS,
	knowledgebaseStatus,
} = require('../domain');

const MAX_FILE_BYTES = 20 * 1024 * 1024;
const KB_NOT_FOUND = () => new HttpError(404, { error: 'Knowledgebase not found.' });
const DOC_NOT_FOUND = () => new HttpError(404, { error: 'Document not found.' });

function presentKnowledgebase(state, kb) {
	const status = knowledgebaseStatus(state, kb.id);
	return {
		id: kb.id,
		name: kb.name,
		description: kb.description,
		status,
		status_label: STATUS_LABELS[status],
		documents_count: state.documents.filter((d) => d.knowledgebase_id === kb.id).length,
		assistants_count: state.assistants.filter((a) => a.knowledgebase_id === kb.id).length,
		created_at: kb.created_at,
		updated_at: kb.updated_at,
	};
}

function presentDocument(doc, fields = ['created_at', 'updated_at']) {
	const out = {
		id: doc.id,
		name: doc.name,
		description: doc.description,
		type: doc.type,
		type_label: DOCUMENT_TYPE_LABELS[doc.type],
		status: doc.status,
		status_label: STATUS_LABELS[doc.status] || doc.status,
	};
	for (const f of fields) out[f] = doc[f];
	return out;
}

function kbOr404(state, rawId) {
	const id = intId(rawId);
	const kb = id === null ? null : state.knowledgebases.find((k) => k.id === id);
	if (!kb) throw KB_NOT_FOUND();
	return kb;
}

function docOr404(state, kb, rawId) {
	const id = intId(rawId);
	const doc =
		id === null ? null : state.documents.find((d) => d.id === id && d.knowledgebase_id === kb.id);
	if (!doc) throw DOC_NOT_FOUND();
	return doc;
}

function validateKnowledgebase(body, isCreate) {
	const v = new Validator(body, INVALID);
	const name = v.check('name', {
		required: isCreate || has(body, 'name'),
		type: 'string',
		max: 255,
	});
	const description = v.check('description', { type: 'string', nullable: true, max: 255 });
	v.throwIfFailed();
	const out = {};
	if (name.present) out.name = name.value;
	if (description.present) out.description = description.value;
	return out;
}

/** Validates a create-document request (JSON or multipart) and returns the new document's fields. */
function validateDocument(body, files) {
	const v = new Validator(body, INVALID);
	const name = v.check('name', { required: true, type: 'string', max: 255 });
	const description = v.check('description', { type: 'string', nullable: true, max: 255 });
	const type = v.check('type', { required: true, type: 'string', in: DOCUMENT_TYPES });
	const doc = {
		name: name.value,
		description: description.value ?? null,
		type: type.value,
		url: null,
		links: null,
		relative_links_limit: null,
		file: null,
	};

	if (type.ok && type.value === 'website') {
		const linksGiven = has(body, 'links') && body.links !== null && body.links !== '';
		const urlGiven = has(body, 'url') && body.url !== null && body.url !== '';
		if (!linksGiven && !urlGiven) {
			v.add('url', 'The url field is required when links is not present.');
			v.add('links', 'The links field is required when url is not present.');
		}
		if (urlGiven) doc.url = v.check('url', { type: 'url', max: 2048 }).value;
		if (linksGiven) {
			const links = v.check('links', { type: 'array' });
			if (links.ok) {
				doc.links = links.value.map((item, i) => {
					const p = `links.${i}.link`;
					const value = item !== null && typeof item === 'object' ? item.link : undefined;
					const present = item !== null && typeof item === 'object' && has(item, 'link');
					return {
						link: v.check(p, { required: true, type: 'url', max: 2048 }, value, present).value,
					};
				});
			}
		}
		const limit = v.check('relative_links_limit', {
			type: 'integer',
			nullable: true,
			min: 1,
			max: 50,
		});
		doc.relative_links_limit = limit.value ?? 10;
	} else if (type.ok && FILE_DOCUMENT_TYPES.includes(type.value)) {
		const file = files && files.file;
		if (!file || (file.filename === '' && file.size === 0)) {
			v.add(
				'file',
				has(body, 'file') && body.file !== ''
					? 'The file must be a file.'
					: 'The file field is required.',
			);
		} else if (file.size > MAX_FILE_BYTES) {
			v.add('file', 'The file must not be greater than 20480 kilobytes.');
		} else {
			doc.file = {
				filename: file.filename,
				content_type: file.contentType,
				size: file.size,
				sha256: file.sha256,
			};
		}
	}
	v.throwIfFailed();
	return doc;
}

function register(router) {
	router.get('/api/user/knowledgebases', ({ state }) => ({
		status: 200,
		body: { data: state.knowledgebases.map((kb) => presentKnowledgebase(state, kb)) },
	}));

	router.post('/api/user/knowledgebases', ({ state, body }) => {
		const fields = validateKnowledgebase(body, true);
		if (fields.name === '__fail_create__') {
			throw new HttpError(500, { error: 'Failed to create knowledgebase. Please try again.' });
		}
		const now = iso();
		const kb = {
			id: nextId(state, 'knowledgebases'),
			name: fields.name,
			description: fields.description ?? null,
			created_at: now,
			updated_at: now,
		};
		state.knowledgebases.push(kb);
		return created('Knowledgebase created successfully.', presentKnowledgebase(state, kb));
	});

	router.get('/api/user/knowledgebases/:id', ({ state, params }) => ({
		status: 200,
		body: { data: presentKnowledgebase(state, kbOr404(state, params.id)) },
	}));

	router.put('/api/user/knowledgebases/:id', ({ state, params, body }) => {
		const kb = kbOr404(state, params.id);
		Object.assign(kb, validateKnowledgebase(body, false), { updated_at: iso() });
		return {
			status: 200,
			body: {
				message: 'Knowledgebase updated successfully.',
				data: presentKnowledgebase(state, kb),
			},
		};
	});

	router.delete('/api/user/knowledgebases/:id', ({ state, params }) => {
		const kb = kbOr404(state, params.id);
		state.knowledgebases.splice(state.knowledgebases.indexOf(kb), 1);
		state.documents = state.documents.filter((d) => d.knowledgebase_id !== kb.id);
		for (const a of state.assistants) if (a.knowledgebase_id === kb.id) a.knowledgebase_id = null;
		return { status: 200, body: { message: 'Knowledgebase deleted successfully.' } };
	});

	router.get('/api/user/knowledgebases/:kb/documents', ({ state, params }) => {
		const kb = kbOr404(state, params.kb);
		return {
			status: 200,
			body: {
				data: state.documents
					.filter((d) => d.knowledgebase_id === kb.id)
					.map((d) => presentDocument(d)),
			},
		};
	});

	router.post('/api/user/knowledgebases/:kb/documents', ({ sim, state, params, body, files }) => {
		const kb = kbOr404(state, params.kb);
		const fields = validateDocument(body, files);
		if (fields.name === '__fail_create__') {
			throw new HttpError(500, { error: 'Failed to create document. Please try again.' });
		}
		const now = iso();
		const doc = {
			id: nextId(state, 'documents'),
			knowledgebase_id: kb.id,
			...fields,
			status: 'processing',
			final_status: /fail/i.test(fields.name) ? 'failed' : 'active',
			created_at: now,
			updated_at: now,
		};
		state.documents.push(doc);
		kb.updated_at = now;
		sim.schedule(sim.config.docProcessingMs, () => {
			doc.status = doc.final_status;
			doc.updated_at = iso();
		});
		return created(
			'Document created successfully. Processing will continue in the background.',
			presentDocument(doc, ['created_at']),
		);
	});

	router.get('/api/user/knowledgebases/:kb/documents/:doc', ({ state, params }) => {
		const kb = kbOr404(state, params.kb);
		return { status: 200, body: { data: presentDocument(docOr404(state, kb, params.doc)) } };
	});

	router.put('/api/user/knowledgebases/:kb/documents/:doc', ({ state, params, body }) => {
		const kb = kbOr404(state, params.kb);
		const doc = docOr404(state, kb, params.doc);
		const v = new Validator(body, INVALID);
		const name = v.check('name', { type: 'string', required: has(body, 'name'), max: 255 });
		const description = v.check('description', { type: 'string', nullable: true, max: 255 });
		v.throwIfFailed();
		if (name.present) doc.name = name.value;
		if (description.present) doc.description = description.value;
		doc.updated_at = iso();
		return {
			status: 200,
			body: {
				message: 'Document updated successfully.',
				data: presentDocument(doc, ['updated_at']),
			},
		};
	});

	router.delete('/api/user/knowledgebases/:kb/documents/:doc', ({ state, params }) => {
		const kb = kbOr404(state, params.kb);
		const doc = docOr404(state, kb, params.doc);
		if (doc.name.includes('__fail_delete__')) {
			throw new HttpError(500, { error: 'Failed to delete document. Please try again.' });
		}
		state.documents.splice(state.documents.indexOf(doc), 1);
		kb.updated_at = iso();
		return { status: 200, body: { message: 'Document deleted successfully.' } };
	});
}

module.exports = { register, presentKnowledgebase, presentDocument };
