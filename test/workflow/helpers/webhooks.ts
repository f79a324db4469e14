/**
 * For the tests of the webhook trigger: its node, the WhatsApp signing credential, and workflows
 * whose webhook server listens during one test.
 */
import type { IDataObject } from 'n8n-workflow';

import type { WorkflowJson, WorkflowOptions } from './runWorkflow';
import { TestWorkflow, TYPES } from './runWorkflow';
import type { Simulator, WorkflowNode } from './workflows';
import { serviceNode, simCredentials } from './workflows';

const SIGNING_TYPE = 'voiceChatAssistantWhatsAppSigningApi';

/**
 * The webhook trigger (`webhookId` makes its URLs' path); `signed`: with a reference to a
 * WhatsApp signing credential.
 */
export const webhookTrigger = (
	name: string,
	parameters: IDataObject,
	{ webhookId, signed = false }: { webhookId: string; signed?: boolean },
): WorkflowNode =>
	serviceNode(name, TYPES.trigger, parameters, {
		webhookId,
		credentials: signed ? { [SIGNING_TYPE]: { id: 'credential-2', name: 'Sender 1' } } : {},
	});

/**
 * For the tests of the enclosing `describe` that open webhook servers: keeps a workflow (and
 * returns it) to close after the test.
 */
export function closedAfterEach(): <T extends TestWorkflow>(test: T) => T {
	let opened: TestWorkflow[] = [];
	afterEach(async () => {
		const closing = opened;
		opened = [];
		for (const test of closing) await test.close();
	});
	return (test) => {
		opened.push(test);
		return test;
	};
}

export interface ListeningOptions extends Partial<WorkflowOptions> {
	/** The secret of the WhatsApp signing credential the workflow's trigger refers to. */
	signingSecret?: string;
}

/**
 * For the tests of the enclosing `describe`: a workflow with the simulator's credential (and
 * `options`), its webhook server listening until the test ends.
 */
export function listeningWorkflows(sim: Simulator) {
	const keep = closedAfterEach();
	return async (json: WorkflowJson, { signingSecret, ...options }: ListeningOptions = {}) => {
		const test = keep(
			new TestWorkflow(json, {
				credentials: simCredentials(sim),
				...(signingSecret ? { otherCredentials: { [SIGNING_TYPE]: { signingSecret } } } : {}),
				...options,
			}),
		);
		await test.listen();
		return test;
	};
}
