'use strict';
/**
 * Folders and labels (the vendor's API documentation): the docs' singular paths
 * for create, update and delete, and the MCP server's plural ones, answer alike.
 *
 *   GET    /api/user/folders|labels          paginated {data: [{id, name, color, assistants_count}]}
 *   POST   /api/user/folder|label            201 {message, data}; 422 name taken
 *   PUT    /api/user/folder|label/:id        200 {message, data}; 404 {message}
 *   DELETE /api/user/folder|label/:id        200 {message}; assistants are kept
 */
const { Validator, INVALID } = require('../validate');
const { HttpError, created, intId } = require('../util');
const { paginate, pageParams } = require('../pagination');
const { nextId } = require('../state');

const COLORS = [
	'gray',
	'slate',
	'red',
	'orange',
	'amber',
	'green',
	'teal',
	'blue',
	'purple',
	'pink',
];

const KINDS = [
	{
		collection: 'folders',
		singular: 'folder',
		noun: 'Folder',
		count: (a, id) => a.folder_id === id,
	},
	{
		collection: 'labels',
		singular: 'label',
		noun: 'Label',
		count: (a, id) => (a.label_ids || []).includes(id),
	},
];

function present(state, kind, record) {
	return {
		id: record.id,
		name: record.name,
		color: record.color,
		assistants_count: state.assistants.filter((a) => kind.count(a, record.id)).length,
	};
}

function validate(state, kind, body, existing) {
	const v = new Validator(body, INVALID);
	const name = v.check('name', { required: !existing, type: 'string', max: 255 });
	const color = v.check('color', { type: 'string', nullable: true, in: COLORS });
	if (
		name.ok &&
		name.present &&
		state[kind.collection].some(
			(r) => r !== existing && r.name.toLowerCase() === String(name.value).toLowerCase(),
		)
	) {
		v.add('name', 'The name has already been taken.');
	}
	if (v.failed) {
		const first = Object.values(v.errors)[0][0];
		throw new HttpError(422, { message: first, errors: v.errors });
	}
	const values = {};
	if (name.present) values.name = name.value;
	if (color.present) values.color = color.value;
	return values;
}

function findOr404(state, kind, rawId) {
	const id = intId(rawId);
	const record = id === null ? null : state[kind.collection].find((r) => r.id === id);
	if (!record) throw new HttpError(404, { message: `${kind.noun} not found` });
	return record;
}

function register(router) {
	for (const kind of KINDS) {
		router.get(`/api/user/${kind.collection}`, (ctx) => {
			const v = new Validator(ctx.query, INVALID);
			const p = pageParams(v, ctx.query);
			v.throwIfFailed();
			return {
				status: 200,
				body: paginate(ctx, ctx.state[kind.collection], p, (r) => present(ctx.state, kind, r)),
			};
		});
		for (const base of [`/api/user/${kind.singular}`, `/api/user/${kind.collection}`]) {
			router.post(base, ({ state, body }) => {
				const values = validate(state, kind, body || {}, null);
				const record = {
					id: nextId(state, kind.collection),
					name: values.name,
					color: values.color ?? null,
				};
				state[kind.collection].push(record);
				return created(`${kind.noun} created successfully`, present(state, kind, record));
			});
			router.put(`${base}/:id`, ({ state, params, body }) => {
				const record = findOr404(state, kind, params.id);
				Object.assign(record, validate(state, kind, body || {}, record));
				return {
					status: 200,
					body: {
						message: `${kind.noun} updated successfully`,
						data: present(state, kind, record),
					},
				};
			});
			router.delete(`${base}/:id`, ({ state, params }) => {
				const record = findOr404(state, kind, params.id);
				state[kind.collection].splice(state[kind.collection].indexOf(record), 1);
				for (const a of state.assistants) {
					if (kind.singular === 'folder' && a.folder_id === record.id) a.folder_id = null;
					if (kind.singular === 'label')
						a.label_ids = (a.label_ids || []).filter((id) => id !== record.id);
				}
				return { status: 200, body: { message: `${kind.noun} deleted successfully` } };
			});
		}
	}
}

module.exports = { register };
