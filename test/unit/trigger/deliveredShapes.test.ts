/**
 * Whether a missed call was delivered, read from the call's `webhook_response`,
 * whose shape SPEC does not show ("not shown beyond being objects"): the
 * receiver's answer alone, or wrapped with its status, or the failure the
 * service recorded. A failure in any of those shapes is no delivery (the
 * catch-up starts the call); any answer of a receiver is one (it does not).
 */
import type { IDataObject } from 'n8n-workflow';

import { answeredByReceiver } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpSelect';

const call = (webhook_response: unknown) => ({ id: 1, webhook_response }) as IDataObject;

describe('a missed call`s webhook_response: delivered or not, whatever its shape', () => {
	it.each([
		['nothing recorded', null],
		['an empty object', {}],
		['a refused connection', { error: 'connect ECONNREFUSED 10.0.0.7:443' }],
		['a timeout', { error: 'timeout of 10000ms exceeded' }],
		['a reset', { error: 'socket hang up' }],
		['a refused connection, as text', 'Error: connect ECONNREFUSED 10.0.0.7:443'],
		['a gateway`s page, wrapped', { status: 502, body: 'Bad Gateway' }],
		[
			'a 503, wrapped, status as text',
			{ status_code: '503', body: '<html>Service Unavailable</html>' },
		],
		['this trigger`s 401, wrapped', { status: 401, body: { message: 'Unauthorized' } }],
		[
			'n8n`s 404, wrapped',
			{
				statusCode: 404,
				body: { code: 404, message: 'The requested webhook "POST x" is not registered.' },
			},
		],
		[
			'n8n`s 404, alone',
			{ code: 404, message: 'The requested webhook "POST x" is not registered.' },
		],
		['a gateway`s page, alone', '<html><body><h1>502 Bad Gateway</h1></body></html>'],
	])('%s: not delivered', (_what, response) => {
		expect(answeredByReceiver(call(response))).toBe(false);
	});

	it.each([
		['this trigger`s answer', { received: true }],
		['this trigger`s answer, wrapped', { status: 200, body: { received: true } }],
		['a workflow`s answer', { crm_id: 'abc' }],
		['a workflow`s answer, wrapped', { status: 200, body: { crm_id: 'abc' } }],
		[
			'a workflow`s answer with an error field of its own',
			{ error: 'customer not found', ok: false },
		],
		[
			'a workflow that failed after it started (n8n`s 500), wrapped',
			{ status: 500, body: { message: 'There was a problem executing the workflow' } },
		],
		['a gateway timeout after n8n may have started it', { status: 504, body: 'Gateway Timeout' }],
		['a workflow`s text answer', 'thanks'],
	])('%s: delivered', (_what, response) => {
		expect(answeredByReceiver(call(response))).toBe(true);
	});
});
