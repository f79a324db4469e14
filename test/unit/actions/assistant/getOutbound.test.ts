import { describeListOperation } from './listCases';

describeListOperation([['getOutbound', '/api/user/assistants/outbound', {}, {}]]);
