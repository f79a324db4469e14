import { describeListOperation } from './listCases';

describeListOperation([
	['getSynthesizerProviders', '/api/user/assistants/synthesizer-providers', {}, {}],
]);
