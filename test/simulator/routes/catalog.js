'use strict';
/**
 * Read-only catalogues used to configure assistants: languages, models, voices,
 * synthesizer and transcriber providers. All answer bare arrays.
 */
const { Validator } = require('../validate');
const { MODES } = require('../domain');

const MODEL_TYPES = ['llm', 'multimodal', 'dualplex'];

/** Voices the user may use: public ones and the user's own. */
function visibleVoices(state) {
	return state.voices.filter((v) => v.owner_id === null || v.owner_id === state.user.id);
}

function languageFilter(query) {
	const v = new Validator(query);
	const languageId = v.check('language_id', { type: 'integer', nullable: true });
	v.throwIfFailed();
	return languageId.value == null ? null : languageId.value;
}

function providers(list, languageId) {
	return list
		.filter((p) => languageId === null || p.language_ids.includes(languageId))
		.map((p) => ({ id: p.id, name: p.name, code: p.code }));
}

function register(router) {
	router.get('/api/user/assistants/languages', ({ state }) => ({
		status: 200,
		body: state.languages.map((l) => ({ id: l.id, name: l.name, code: l.code, iso_2: l.iso_2 })),
	}));

	router.get('/api/user/assistants/models', ({ state, query }) => {
		const v = new Validator(query);
		const type = v.check('type', { type: 'string', nullable: true, in: MODEL_TYPES });
		v.throwIfFailed();
		const wanted = type.value || 'llm';
		return {
			status: 200,
			body: state.models
				.filter((m) => m.type === wanted)
				.map((m) => ({ id: m.id, name: m.name, type: m.type })),
		};
	});

	router.get('/api/user/assistants/voices', ({ state, query }) => {
		const v = new Validator(query);
		const mode = v.check('mode', { type: 'string', nullable: true, in: MODES });
		const language = v.check('language_id', { type: 'integer', nullable: true });
		v.throwIfFailed();
		const voices = visibleVoices(state).filter(
			(voice) =>
				(!mode.value || voice.modes.includes(mode.value)) &&
				// voices without a language are multilingual and match every language
				(language.value == null ||
					voice.language_id === null ||
					voice.language_id === language.value),
		);
		return {
			status: 200,
			body: voices.map(({ id, name, language_id, gender }) => ({ id, name, language_id, gender })),
		};
	});

	router.get('/api/user/assistants/synthesizer-providers', ({ state, query }) => ({
		status: 200,
		body: providers(state.synthesizerProviders, languageFilter(query)),
	}));

	router.get('/api/user/assistants/transcriber-providers', ({ state, query }) => ({
		status: 200,
		body: providers(state.transcriberProviders, languageFilter(query)),
	}));
}

module.exports = { register, visibleVoices };
