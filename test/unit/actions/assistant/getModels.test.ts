import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { run } from '../helpers';
import { itOutputsOneItemPerElement, itReadsTheList } from './listCases';

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	itReadsTheList([
		['getModels', '/api/user/assistants/models', { modelType: 'multimodal' }, { type: 'multimodal' }],
	]);
});

describe('Assistant (lists, delete, webhooks)', () => {
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
	});
	afterEach(() => nock.cleanAll());

	itOutputsOneItemPerElement([
		['getModels', '/api/user/assistants/models', { modelType: 'multimodal' }, { type: 'multimodal' }],
	]);

	it('Get Models refuses an unknown type without a request', async () => {
		await expect(run({ resource: 'assistant', operation: 'getModels', modelType: 'tts', returnAll: true })).rejects.toThrow('Model Type must be one of');
	});
});
