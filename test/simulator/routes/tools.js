'use strict';
/**
 * Mid call tools.
 *
 *   POST   /api/user/tools       201 {message, data: tool}; 403 {message} beyond the plan limit
 *   GET    /api/user/tools       bare array
 *   GET    /api/user/tools/:id   bare object; 404 {message: 'Tool not found'}
 *   PUT    /api/user/tools/:id   {message, data: tool}
 *   DELETE /api/user/tools/:id   {message}
 */
const { Validator } = require('../validate');
const { HttpError, created, has, isPlainObject, iso, intId } = require('../util');
const { nextId } = require('../state');
const { TOOL_METHODS } = require('../domain');

const NAME_RULE = /^[a-z][a-z_]*$/;
const NAME_MESSAGE =
	'Tool name must contain only lowercase letters and underscores, and start with a letter.';

/** The fields of a tool as the API shows them, in its order. */
const FIELDS = [
	'id',
	'name',
	'description',
	'endpoint',
	'method',
	'timeout',
	'headers',
	'schema',
	'created_at',
	'updated_at',
];

function present(tool) {
	return Object.fromEntries(FIELDS.map((key) => [key, tool[key]]));
}

function toolOr404(state, rawId) {
	const id = intId(rawId);
	const tool = id === null ? null : state.tools.find((t) => t.id === id);
	if (!tool) throw new HttpError(404, { message: 'Tool not found' });
	return tool;
}

function validateItems(v, field, items, shape) {
	return items.map((item, i) => {
		const p = `${field}.${i}`;
		if (!isPlainObject(item)) {
			v.add(p, `The ${p} must be an object.`);
			return null;
		}
		const out = {};
		for (const [key, rules] of Object.entries(shape)) {
			out[key] = v.check(
				`${p}.${key}`,
				{ required: true, ...rules },
				item[key],
				has(item, key),
			).value;
		}
		return out;
	});
}

/** Validates a create (all required fields) or update (any subset) body. */
function validateTool(body, isCreate) {
	const v = new Validator(body, 'Validation failed');
	const req = (f) => isCreate || has(body, f);
	const fields = {
		name: v.check('name', {
			required: req('name'),
			type: 'string',
			max: 255,
			regex: NAME_RULE,
			messages: { regex: NAME_MESSAGE },
		}),
		description: v.check('description', { required: req('description'), type: 'string', max: 255 }),
		endpoint: v.check('endpoint', { required: req('endpoint'), type: 'url', max: 2048 }),
		method: v.check('method', { required: req('method'), type: 'string', in: TOOL_METHODS }),
		timeout: v.check('timeout', { type: 'integer', nullable: true, min: 1, max: 30 }),
		headers: v.check('headers', { type: 'array', nullable: true }),
		schema: v.check('schema', { type: 'array', nullable: true }),
	};
	const out = {};
	for (const [key, r] of Object.entries(fields)) if (r.present && r.ok) out[key] = r.value;
	if (has(out, 'timeout') && out.timeout === null) out.timeout = 10;
	if (has(out, 'headers')) {
		out.headers = validateItems(v, 'headers', out.headers || [], {
			name: { type: 'string', max: 255 },
			value: { type: 'string' },
		});
	}
	if (has(out, 'schema')) {
		out.schema = validateItems(v, 'schema', out.schema || [], {
			name: { type: 'string', max: 64 },
			type: { type: 'string', in: ['string', 'number', 'boolean'] },
			description: { type: 'string', max: 255 },
		});
	}
	v.throwIfFailed();
	return out;
}

function register(router) {
	router.post('/api/user/tools', ({ state, config, body }) => {
		const fields = validateTool(body, true);
		if (state.tools.length >= config.toolLimit) {
			throw new HttpError(403, {
				message: `You have reached your plan limit of ${config.toolLimit} mid call tools. Please upgrade your plan to create more tools.`,
			});
		}
		const now = iso();
		const tool = {
			id: nextId(state, 'tools'),
			timeout: 10,
			headers: [],
			schema: [],
			...fields,
			created_at: now,
			updated_at: now,
		};
		state.tools.push(tool);
		return created('Tool created successfully', present(tool));
	});

	router.get('/api/user/tools', ({ state }) => ({ status: 200, body: state.tools.map(present) }));

	router.get('/api/user/tools/:id', ({ state, params }) => ({
		status: 200,
		body: present(toolOr404(state, params.id)),
	}));

	router.put('/api/user/tools/:id', ({ state, params, body }) => {
		const tool = toolOr404(state, params.id);
		Object.assign(tool, validateTool(body, false), { updated_at: iso() });
		return { status: 200, body: { message: 'Tool updated successfully', data: present(tool) } };
	});

	router.delete('/api/user/tools/:id', ({ state, params }) => {
		const tool = toolOr404(state, params.id);
		state.tools.splice(state.tools.indexOf(tool), 1);
		for (const a of state.assistants)
			a.tool_ids = (a.tool_ids || []).filter((id) => id !== tool.id);
		return { status: 200, body: { message: 'Tool deleted successfully' } };
	});
}

module.exports = { register };
