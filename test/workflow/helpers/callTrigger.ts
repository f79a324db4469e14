/**
 * For the webhook trigger's tests through n8n's life (restarts, outages) against a simulator that
 * posts each call's webhook once: a workflow whose trigger watches the ended calls of assistant 1,
 * with n8n's saving modelled (`savesLikeN8n`), and the calls that end.
 */
import type { IDataObject } from 'n8n-workflow';

import { TestWorkflow } from './runWorkflow';
import { closedAfterEach, webhookTrigger } from './webhooks';
import type { Simulator } from './workflows';
import { byId, control, forgetProcessMemory, simCredentials, standalone } from './workflows';

/** The name of the trigger in callCompletedTrigger()'s workflow. */
export const CALL_TRIGGER = 'Call Ended';

/** For the tests of the enclosing `describe`; their workflows are closed after each test. */
export function callCompletedTrigger(sim: Simulator, webhookId: string) {
	const keep = closedAfterEach();

	/** The workflow (not listening yet); `parameters` are added to the trigger's. */
	const workflow = (parameters: IDataObject = {}) =>
		keep(
			new TestWorkflow(
				standalone(
					webhookTrigger(
						CALL_TRIGGER,
						{ event: 'callCompleted', assistantId: byId(1), ...parameters },
						{ webhookId },
					),
				),
				{ credentials: simCredentials(sim), savesLikeN8n: true },
			),
		);

	return {
		workflow,

		/** The workflow listening, activated as n8n activates it: checkExists says no, create registers. */
		async activated(parameters: IDataObject = {}): Promise<TestWorkflow> {
			const test = workflow(parameters);
			await test.listen();
			expect(await test.hook(CALL_TRIGGER, 'checkExists')).toBe(false);
			expect(await test.hook(CALL_TRIGGER, 'create', { activation: 'activate' })).toBe(true);
			return test;
		},

		/** A call of assistant 1 ends now; resolves to its id. */
		async callEnds(): Promise<number> {
			const done = await control<IDataObject>(sim, 'calls/complete', { assistant_id: 1 });
			return Number((done.call as IDataObject).id);
		},

		/** n8n stops and starts again: the process forgets; the saved static data stays. */
		restart: forgetProcessMemory,
	};
}
