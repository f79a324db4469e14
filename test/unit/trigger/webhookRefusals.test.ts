/**
 * What makes activation fail, and that it then changes nothing: "Fail
 * Activation" on a foreign URL, a bad or missing assistant, a failed
 * registration (all or nothing).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { TEST_BASE_URL } from '../../helpers/context';
import { activate, locator, requestLines } from '../../helpers/hookContext';
import { triggerMethods as methods } from '../../helpers/registeredTrigger';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import {
	LIST,
	ENABLE_INBOUND,
	CRM,
	assistant,
	service,
	inboundParams,
	postCallParams,
	hook,
	registration,
} from './webhookLifecycle';

describe('Voice Chat Assistant Trigger: refused activations', () => {
	fakeClockPerTest();

	describe('create', () => {
		it('"Fail Activation" names the host that receives the calls and changes nothing', async () => {
			const svc = service([assistant(12, { inbound_webhook_url: CRM })]);
			const { context, staticData, sent } = hook({
				parameters: inboundParams({ existingWebhook: 'fail' }),
			});
			const error = await activate(context).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as Error).message).toBe(
				'Assistant 12 already sends its calls to crm.example.com',
			);
			expect((error as NodeOperationError).description).toMatch(/Take Over and Give Back/);
			// the path and the token of the foreign URL appear nowhere
			expect(JSON.stringify(error)).not.toContain('crm-token');
			expect(requestLines(sent)).toEqual([`GET ${LIST} page=1`]);
			expect(staticData).toEqual({});
			expect(svc.assistants[0].inbound_webhook_url).toBe(CRM);
		});

		it('"Fail Activation" does not stop a switched-off webhook from being used', async () => {
			service([assistant(12, { webhook_url: CRM, is_webhook_active: false })]);
			const { context, staticData } = hook({
				parameters: postCallParams({ existingWebhook: 'fail' }),
			});
			await expect(activate(context)).resolves.toBe('created');
			expect((registration(staticData).assistants as IDataObject[])[0].giveBack).toEqual([
				{
					url: CRM,
					active: false,
					settings: { send_webhook_only_on_completed: true, include_recording_in_webhook: true },
				},
			]);
		});

		it('refuses an assistant ID that is not a number, before calling the service', async () => {
			const { context, sent } = hook({
				parameters: inboundParams({ assistantId: locator('abc', 'id') }),
			});
			await expect(activate(context)).rejects.toThrow(
				'Assistant must be a numeric assistant ID, got "abc"',
			);
			const none = hook({ parameters: inboundParams({ assistantId: locator('', 'list') }) });
			await expect(activate(none.context)).rejects.toThrow('No assistant chosen');
			expect([...sent, ...none.sent]).toEqual([]);
		});

		it('an assistant missing from the list fails activation before anything is registered', async () => {
			service([assistant(12)]);
			const { context, staticData, sent } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator(99) }] },
				}),
			});
			await expect(activate(context)).rejects.toThrow('Assistant 99 not found');
			// every assistant is decided before any is written: nothing to undo
			expect(requestLines(sent)).toEqual([`GET ${LIST} page=1`]);
			expect(staticData).toEqual({});
		});

		it('all or nothing: the first assistant gets its foreign URL back when the second one fails', async () => {
			// answered before the service's own interceptors, which nock consults in order
			nock(TEST_BASE_URL)
				.post(ENABLE_INBOUND, (b) => b.assistant_id === 34)
				.reply(422, {
					message: 'The given data was invalid.',
					errors: { webhook_url: ['The webhook url format is invalid.'] },
				});
			const svc = service([assistant(12, { inbound_webhook_url: CRM }), assistant(34)]);
			const { context, staticData } = hook({
				parameters: inboundParams({
					additionalAssistants: { assistant: [{ assistantId: locator(34) }] },
				}),
			});
			const error = await methods.create.call(context).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect((error as Error).message).toMatch(/^Registering the webhook for assistant 34 failed/);
			expect(svc.assistants[0].inbound_webhook_url).toBe(CRM);
			expect(staticData).toEqual({});
		});

		it('an "Assistant not found" answer with status 200 is a failure, not a registration', async () => {
			nock(TEST_BASE_URL).post(ENABLE_INBOUND).reply(200, { message: 'Assistant not found' });
			service([assistant(12)]);
			const { context, staticData } = hook({ parameters: inboundParams() });
			await expect(methods.create.call(context)).rejects.toThrow(
				'Registering the webhook for assistant 12 failed: Assistant not found',
			);
			expect(staticData).toEqual({});
		});
	});
});
