import { describeListOperation } from './listCases';

describeListOperation([
	['getTranscriberProviders', '/api/user/assistants/transcriber-providers', {}, {}],
]);
