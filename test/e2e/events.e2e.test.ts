/**
 * Events in a real `n8n start`: the polling trigger in two workflows watching
 * the same assistant (each call once in each, none twice across a restart,
 * nothing of an inactive time after a user activates one again),
 * a chat that ends and a call that the service delivers twice (one execution
 * each, the recording as binary data), and Call → Make with Wait for Result.
 */
const {
	startSimulatorAndHome,
	UNTHROTTLED,
	outputOf,
	pollEvery,
	waiter,
	sleep,
	simControl: control,
	manualTriggerNode,
	packageNode,
	triggerOnlyWorkflow,
	POLLING_TRIGGER_TYPE,
	rl,
} = require('../harness/n8n');
/** The harness's waitFor with this file's default: n8n's polls take real minutes. */
const waitFor = waiter(150_000);

function pollingWorkflow(id: string) {
	return triggerOnlyWorkflow(id, {
		id: 'poll',
		type: POLLING_TRIGGER_TYPE,
		parameters: {
			pollTimes: pollEvery(10),
			event: 'callEnded',
			assistantId: rl(2),
			callFilters: {},
		},
	});
}

function webhookWorkflow(id: string, webhookId: string, parameters: Record<string, unknown>) {
	return triggerOnlyWorkflow(id, {
		id: 'hook',
		name: 'Trigger',
		webhookId,
		parameters: { assistantId: rl(1), ...parameters },
	});
}

describe('real n8n server: polling trigger, chat-ended events, replays, waiting for a call', () => {
	let sim: any;
	let home: any;
	let server: any;
	const executions = (workflowId: string): Array<{ id: number; status: string }> =>
		home.executions(workflowId);
	const dataOf = (executionId: number): string => home.executionData(executionId);
	const callPolls = () =>
		sim.log.filter((e: any) => e.method === 'GET' && e.path === '/api/user/calls').length;

	beforeAll(async () => {
		({ sim, home } = await startSimulatorAndHome({
			simulator: { redeliveryDelaysMs: [700, 1400, 2800], callLifecycleMs: 3000 },
			credentialData: UNTHROTTLED,
		}));
		const ids = await home.importWorkflows([
			pollingWorkflow('e2ePollingWfA001'),
			pollingWorkflow('e2ePollingWfB001'),
			webhookWorkflow('e2eChatEndedWf01', '5b0c8a1e-2f4d-4c6b-8e9a-0a1b2c3d4e5f', {
				event: 'conversationEnded',
			}),
			webhookWorkflow('e2ePostCallWf001', '6c1d9b2f-3a5e-4d7c-9fab-1b2c3d4e5f60', {
				event: 'callCompleted',
				options: { downloadRecording: true },
			}),
		]);
		await home.activate(ids);
		server = await home.start();
		// the first polls note where the call list stands (n8n 2.x keeps what a poll notes only from its
		// scheduled polls on, not from the one at activation): two polls of each workflow
		await waitFor('the first polls', () => callPolls() >= 4);
	});

	afterAll(async () => {
		await server?.stop();
		await sim?.close();
		await home?.cleanup();
	});

	it('polling: 3 calls → 3 executions in each of two workflows on the same assistant, none twice across a restart', async () => {
		for (const phone of ['+4915100000001', '+4915100000002', '+4915100000003']) {
			await control(sim, 'calls/complete', {
				assistant_id: 2,
				type: 'outbound',
				customer_phone: phone,
			});
		}
		// the phone numbers of the calls each execution emitted (each execution's numbers once)
		const itemsOf = (workflowId: string) =>
			executions(workflowId).flatMap((e) => [
				...new Set(dataOf(e.id).match(/\+49151000000\d\d/g) ?? []),
			]);
		for (const wf of ['e2ePollingWfA001', 'e2ePollingWfB001']) {
			await waitFor(`3 calls in ${wf}`, () => new Set(itemsOf(wf)).size >= 3);
		}
		const phonesOf = itemsOf;
		const once = (list: string[]) => list.filter((p, i) => list.indexOf(p) !== i);
		await server.stop();
		const polls = callPolls();
		server = await home.start({ port: Number(new URL(server.baseUrl).port) });
		await waitFor('polls after the restart', () => callPolls() >= polls + 2);
		await control(sim, 'calls/complete', {
			assistant_id: 2,
			type: 'outbound',
			customer_phone: '+4915100000004',
		});
		for (const wf of ['e2ePollingWfA001', 'e2ePollingWfB001']) {
			await waitFor(`the 4th call in ${wf}`, () => itemsOf(wf).includes('+4915100000004'));
			await sleep(1000);
			// each call once in each workflow, before and after the restart
			expect(phonesOf(wf).sort()).toEqual([
				'+4915100000001',
				'+4915100000002',
				'+4915100000003',
				'+4915100000004',
			]);
			expect(once(phonesOf(wf))).toEqual([]);
		}
	}, 400_000);

	it('polling: deactivated while two calls end, activated again by a user: nothing of the inactive time starts, the next call does', async () => {
		const rest = await home.rest(server);
		const phonesOf = (workflowId: string) =>
			executions(workflowId).flatMap((e) => [
				...new Set(dataOf(e.id).match(/\+49151000000\d\d/g) ?? []),
			]);
		await rest.deactivate('e2ePollingWfA001');
		for (const phone of ['+4915100000005', '+4915100000006']) {
			await control(sim, 'calls/complete', {
				assistant_id: 2,
				type: 'outbound',
				customer_phone: phone,
			});
		}
		// the workflow that stayed active gets them
		await waitFor("the inactive time's calls in the active workflow", () =>
			['+4915100000005', '+4915100000006'].every((p) => phonesOf('e2ePollingWfB001').includes(p)),
		);
		const polls = callPolls();
		// n8n runs the first poll of an activation before it answers
		await rest.activate('e2ePollingWfA001');
		await waitFor('polls after the activation', () => callPolls() >= polls + 3);
		await sleep(12_000);
		await control(sim, 'calls/complete', {
			assistant_id: 2,
			type: 'outbound',
			customer_phone: '+4915100000007',
		});
		await waitFor('the next call in the activated workflow', () =>
			phonesOf('e2ePollingWfA001').includes('+4915100000007'),
		);
		await sleep(1000);
		const activated = phonesOf('e2ePollingWfA001');
		expect(activated).not.toContain('+4915100000005');
		expect(activated).not.toContain('+4915100000006');
		expect(activated.filter((p) => p === '+4915100000007')).toHaveLength(1);
	}, 300_000);

	it('a chat that ends → one execution with the transcript, also when the service delivers it again', async () => {
		await waitFor(
			'the chat webhook registration',
			() => sim.state.assistants[0].conversation_ended_webhook_url,
		);
		const ended = await control(sim, 'conversations/end', {
			assistant_id: 1,
			type: 'whatsapp',
			messages: [
				{ role: 'assistant', content: 'Hello, how can I help?' },
				{ role: 'user', content: 'Are you open on Sunday?' },
			],
			redeliver: true,
		});
		expect(ended.deliveries[0].status).toBe(200);
		await waitFor(
			'the redelivery',
			() =>
				(sim.state.webhookDeliveries ?? []).filter((d: any) => d.kind === 'conversation_ended')
					.length >= 2,
			20_000,
		);
		const [run] = await waitFor(
			'one execution',
			() => executions('e2eChatEndedWf01').length >= 1 && executions('e2eChatEndedWf01'),
		);
		await sleep(1500);
		expect(executions('e2eChatEndedWf01')).toHaveLength(1);
		const data = dataOf(run.id);
		expect(data).toContain('Are you open on Sunday?');
		expect(data).toContain(ended.payload.conversation_id);
	});

	it('a call delivered twice → one execution, with the recording as binary data', async () => {
		await waitFor('the post-call registration', () => sim.state.assistants[0].is_webhook_active);
		const done = await control(sim, 'calls/complete', {
			assistant_id: 1,
			customer_phone: '+4915122223333',
			redeliver: true,
		});
		await waitFor(
			'the redelivery',
			() =>
				(sim.state.webhookDeliveries ?? []).filter((d: any) => d.call_id === done.call.id).length >=
				2,
			20_000,
		);
		const [run] = await waitFor(
			'one execution',
			() => executions('e2ePostCallWf001').length >= 1 && executions('e2ePostCallWf001'),
		);
		await sleep(1500);
		expect(executions('e2ePostCallWf001')).toHaveLength(1);
		const data = dataOf(run.id);
		expect(data).toContain('+4915122223333');
		expect(data).toContain('audio/mpeg');
	});

	it('Call → Make with Wait for Result outputs the final call with its transcript and the recording', async () => {
		const id = await home.createWorkflow(server, {
			id: 'e2eMakeWaitWf001',
			name: 'make and wait',
			nodes: [
				manualTriggerNode({ id: 'start' }),
				packageNode({
					id: 'make',
					name: 'Make',
					position: [200, 0],
					parameters: {
						resource: 'call',
						operation: 'make',
						assistantId: rl(2),
						phoneNumber: '+4915144445555',
						options: { waitForResult: true, timeoutMinutes: 2, downloadRecording: true },
					},
				}),
			],
			connections: { Start: { main: [[{ node: 'Make', type: 'main', index: 0 }]] } },
		});
		// run in the server, as from the editor
		const result = await home.run(server, id);
		expect({
			ok: result.ok,
			stderr: result.ok ? '' : `${result.stderr}\n${String(result.raw).slice(-2000)}`,
		}).toEqual({ ok: true, stderr: '' });
		const [item] = outputOf(result.run, 'Make').items;
		expect(item.json).toMatchObject({ status: 'completed', client_phone_number: '+4915144445555' });
		expect(item.json.transcript).toEqual(expect.stringContaining('Assistant:'));
		expect(item.binary.data).toMatchObject({ mimeType: 'audio/mpeg' });
	});
});

export {};
