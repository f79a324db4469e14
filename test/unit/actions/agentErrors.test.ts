/**
 * docs/ai-agent.md, "When a tool fails: what the model sees": as an AI Agent's tool (n8n's
 * `…Tool` node type) the node answers a failure with an error item instead of failing, so the
 * model reads the message, under On Error "Stop Workflow" and "Continue" alike. Errors of the
 * service (a duplicate lead, a number the service refuses) reach the model the same way as the
 * node's own checks: one item `{"error": "<message>"}` paired to the input, with the service's
 * hint in `description`; the message is the one the node fails with outside an agent.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_BASE_URL, createContext } from '../../helpers/context';
import { rl } from './helpers';

const TOOL_TYPE = 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTool';

/** The node's run: as a tool of an agent or as a workflow node, with On Error "Continue" or not. */
async function runNode(parameters: IDataObject, asTool: boolean, continueOnFail: boolean) {
	const { context, sent } = createContext({
		parameters,
		continueOnFail,
		node: asTool ? { type: TOOL_TYPE, name: 'Create Lead' } : {},
	});
	const [output] = await router.call(context);
	return { output, sent };
}

/** The same failure outside an agent, with On Error "Stop Workflow": the error the node fails with. */
async function thrown(parameters: IDataObject): Promise<NodeApiError> {
	try {
		await runNode(parameters, false, false);
	} catch (error) {
		return error as NodeApiError;
	}
	throw new Error('the node did not fail');
}

const LEAD = {
	resource: 'lead',
	operation: 'create',
	campaignId: rl('7'),
	phoneNumber: '+4915112345678',
	options: { onDuplicate: 'fail' },
};
const SMS = {
	resource: 'sms',
	operation: 'send',
	fromNumberId: rl('1'),
	to: '+4915112345678',
	body: 'Your order has shipped.',
};
const CALL = {
	resource: 'call',
	operation: 'make',
	assistantId: rl('2'),
	phoneNumber: '+4915112345678',
};

/** Each error of the service: the node's parameters, the service's answer, and its words the message keeps. */
const SERVICE_ERRORS: Array<[string, IDataObject, () => nock.Scope, string]> = [
	[
		'a duplicate lead (Lead → Create, On Duplicate = Fail)',
		LEAD,
		() =>
			nock(TEST_BASE_URL)
				.post('/api/user/lead')
				.reply(422, {
					message: 'The given data was invalid.',
					errors: {
						phone_number: ['A lead with this phone number already exists in this campaign.'],
					},
				}),
		'A lead with this phone number already exists in this campaign.',
	],
	[
		'a number the service refuses (SMS → Send)',
		SMS,
		() =>
			nock(TEST_BASE_URL)
				.post('/api/user/sms')
				.reply(422, {
					message: 'The given data was invalid.',
					errors: { to: ['The recipient number is not a reachable mobile number.'] },
				}),
		'The recipient number is not a reachable mobile number.',
	],
	[
		'a number the service refuses with HTTP 200 (Call → Make)',
		CALL,
		() =>
			nock(TEST_BASE_URL)
				.post('/api/user/make_call')
				.reply(200, { status: false, error: 'Calls to this destination are not allowed.' }),
		'Calls to this destination are not allowed.',
	],
];

const ON_ERROR: Array<[string, boolean]> = [
	['Stop Workflow', false],
	['Continue', true],
];

const CASES = SERVICE_ERRORS.flatMap(([what, parameters, service, words]) =>
	ON_ERROR.map(
		([onError, continueOnFail]) =>
			[what, onError, parameters, service, words, continueOnFail] as const,
	),
);

describe('as an AI Agent tool, errors of the service reach the model as error items', () => {
	afterEach(() => nock.cleanAll());

	it.each(CASES)(
		'%s, On Error %s: one item {"error"} with the service text and its hint, not a failed run',
		async (_what, _onError, parameters, service, words, continueOnFail) => {
			// outside an agent the node fails: this is the message and the hint it fails with
			service();
			const failure = await thrown(parameters);
			expect(failure).toBeInstanceOf(NodeApiError);
			expect(failure.message).toContain(words);

			const scope = service();
			const { output } = await runNode(parameters, true, continueOnFail);
			scope.done();
			expect(output).toHaveLength(1);
			const [item] = output as INodeExecutionData[];
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json.error).toBe(failure.message);
			expect(item.json.description).toBe(failure.description ?? undefined);
			expect(String(item.json.error)).toContain(words);
		},
	);

	it.each(ON_ERROR)(
		'On Error %s: the same one item as when the node itself refuses the input (nothing sent), the message in "error"',
		async (_onError, continueOnFail) => {
			// the node's own check: a phone number the model gave in a local form
			const { output: checked, sent } = await runNode(
				{ ...LEAD, phoneNumber: '0151 1234567' },
				true,
				continueOnFail,
			);
			expect(sent).toEqual([]);
			expect(checked).toEqual([
				{
					json: {
						error:
							'Phone Number must be a phone number in E.164 form (a "+", the country code and the number, digits only, e.g. +4915112345678), got "0151 1234567"',
					},
					pairedItem: { item: 0 },
				},
			]);

			// the service's refusal of the same operation: the same one item, paired, its text in "error"
			SERVICE_ERRORS[0][2]();
			const { output: refused } = await runNode(LEAD, true, continueOnFail);
			expect(refused).toHaveLength(checked.length);
			expect(refused[0].pairedItem).toEqual(checked[0].pairedItem);
			expect(Object.keys(refused[0].json)[0]).toBe('error');
			expect(refused[0].json.error).toMatch(/already exists in this campaign/);
		},
	);
});
