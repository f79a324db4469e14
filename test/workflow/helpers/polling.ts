/**
 * For the polling trigger's tests: what a poll emitted, n8n's default poller
 * (what it saves, and a restart from the saved copy), and Call Ended
 * (callEndedPollingWorkflow) on the simulator's outbound calls of assistant 2.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	WorkflowActivateMode,
} from 'n8n-workflow';

import { restartProcessForTests } from '../../../nodes/VoiceChatAssistantPollingTrigger/events/process';
import type { WorkflowJson, WorkflowOptions } from './runWorkflow';
import { TestWorkflow } from './runWorkflow';
import type { Simulator } from './workflows';
import { CALL_ENDED_TRIGGER, callEndedPollingWorkflow, control, simCredentials } from './workflows';

/** The JSON of the items a poll emitted ([] when it emitted nothing). */
export const emittedJson = (output: INodeExecutionData[][] | null) =>
	(output?.[0] ?? []).map((item) => item.json);

/** The ids of the items a poll emitted, as numbers. */
export const emittedIds = (output: INodeExecutionData[][] | null) =>
	emittedJson(output).map((json) => Number(json.id));

/** n8n's default poller: the static data is saved at activation and when a poll emits. */
export class DefaultPoller {
	test: TestWorkflow;

	private saved: IDataObject = {};

	constructor(
		private readonly json: WorkflowJson,
		private readonly options: WorkflowOptions,
	) {
		this.test = new TestWorkflow(json, options);
	}

	/** Polls `node`: the JSON of the items it emitted. */
	async poll(node: string): Promise<IDataObject[]> {
		const output = await this.test.poll(node);
		if (output !== null || Object.keys(this.saved).length === 0)
			this.saved = JSON.parse(JSON.stringify(this.test.staticData));
		return emittedJson(output);
	}

	/** n8n starts again (a new process): the workflow goes on from the static data it saved. */
	restart() {
		restartProcessForTests();
		this.test = new TestWorkflow(
			{ ...this.json, staticData: JSON.parse(JSON.stringify(this.saved)) },
			{ ...this.options, activation: 'init' },
		);
	}
}

export interface CallEndedOptions {
	/** Why n8n activated the workflow (default: a user turned it on). */
	activation?: WorkflowActivateMode;
	/** The static data as n8n saved it. */
	staticData?: IDataObject;
	/** The credential data (default: simCredentials). */
	credentials?: ICredentialDataDecryptedObject;
}

/** Call Ended (polling) on the outbound calls of the simulator's assistant 2. */
export function callEndedPolling(sim: Simulator) {
	/** The workflow, activated as `options` say. */
	const workflow = ({ activation, staticData, credentials }: CallEndedOptions = {}) =>
		new TestWorkflow(
			{ ...callEndedPollingWorkflow(), ...(staticData ? { staticData } : {}) },
			{ credentials: credentials ?? simCredentials(sim), activation },
		);

	return {
		workflow,

		/** Polls the workflow's trigger. */
		poll: (test: TestWorkflow) => test.poll(CALL_ENDED_TRIGGER),

		/** Activation: the first poll notes where the list stands and emits nothing. */
		async activate(options: CallEndedOptions = {}) {
			const test = workflow(options);
			expect(await test.poll(CALL_ENDED_TRIGGER)).toBeNull();
			return test;
		},

		/** An outbound call of assistant 2 ends now (`body`: more of its fields); its id. */
		async endCall(body: IDataObject = {}) {
			const ended = await control<{ call: IDataObject }>(sim, 'calls/complete', {
				assistant_id: 2,
				type: 'outbound',
				...body,
			});
			return Number(ended.call.id);
		},

		/** `count` outbound calls of assistant 2 with `status`, started today: the first and last id. */
		async seedCalls(count: number, status = 'completed') {
			const seeded = await control<IDataObject>(sim, 'calls/seed', {
				count,
				assistant_id: 2,
				type: 'outbound',
				status,
				days: 0,
			});
			return { first: Number(seeded.first_id), last: Number(seeded.last_id) };
		},

		/** The call-list requests the simulator logged since `from` (an index of its log). */
		listRequests: (from = 0) =>
			sim.log.slice(from).filter((entry) => entry.path === '/api/user/calls'),
	};
}
