import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { run } from '../helpers';
import { itOutputsOneItemPerElement, itReadsTheList } from './listCases';

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	itReadsTheList([
		[
			'getVoices',
			'/api/user/assistants/voices',
			{ filters: { mode: 'dualplex', language_id: 2 } },
			{ mode: 'dualplex', language_id: '2' },
		],
		['getVoices', '/api/user/assistants/voices', { filters: {} }, {}],
	]);

	it('Get Voices refuses an unknown engine mode', async () => {
		await expect(
			run({
				resource: 'assistant',
				operation: 'getVoices',
				returnAll: true,
				filters: { mode: 'turbo' },
			}),
		).rejects.toThrow('Engine Mode must be one of pipeline, multimodal, dualplex, got "turbo"');
	});
});

describe('Assistant (lists, delete, webhooks)', () => {
	itOutputsOneItemPerElement([
		[
			'getVoices',
			'/api/user/assistants/voices',
			{ filters: { mode: 'dualplex', language_id: 2 } },
			{ mode: 'dualplex', language_id: '2' },
		],
		['getVoices', '/api/user/assistants/voices', { filters: {} }, {}],
	]);
});
