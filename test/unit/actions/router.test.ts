import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { resources as typedResources } from '../../../nodes/VoiceChatAssistant/actions/resources';
import type {
	OperationModule,
	ResourceModule,
} from '../../../nodes/VoiceChatAssistant/actions/types';
import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { createContext } from '../../helpers/context';

/** The map as the router reads it: the tests put stand-ins in place of an operation. */
const resources: Record<string, ResourceModule> = typedResources;

/**
 * The router with a stand-in operation in the place of Lead → Create, so the
 * pairing, ordering, concurrency and error handling are tested on their own.
 */
describe('router', () => {
	const original = resources.lead.operations.create;
	let inFlight = 0;
	let maxInFlight = 0;
	const started: number[] = [];

	/** The stand-in declares itself parallel, as Lead → Create does (the router reads that from the module). */
	function useOperation(execute: OperationModule['execute'], parallel = true) {
		resources.lead.operations.create = { description: [], execute, parallel };
	}

	beforeEach(() => {
		inFlight = 0;
		maxInFlight = 0;
		started.length = 0;
	});
	afterEach(() => {
		resources.lead.operations.create = original;
	});

	const items = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { row: i } }));

	async function slowEcho(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
		started.push(itemIndex);
		inFlight++;
		maxInFlight = Math.max(maxInFlight, inFlight);
		// later items finish first, to prove the output order is the input order
		await new Promise((resolve) => setTimeout(resolve, (10 - itemIndex) * 3));
		inFlight--;
		const row = this.getInputData()[itemIndex].json.row as number;
		if (row === 3)
			throw new NodeOperationError(this.getNode(), 'phone_number must be E.164', { itemIndex });
		return { row };
	}

	/** An operation failing as the service does for an unknown campaign (404). */
	async function campaignNotFound(this: IExecuteFunctions): Promise<IDataObject> {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'Campaign not found' },
			{ message: 'Campaign not found', httpCode: '404' },
		);
	}

	it('by default follows the budget (2 in flight at the standard budget) and pairs each output with its input', async () => {
		useOperation(slowEcho);
		const { context } = createContext({
			parameters: { resource: 'lead', operation: 'create' },
			items: items(3),
		});
		const [output] = await router.call(context);
		expect(output).toEqual([0, 1, 2].map((row) => ({ json: { row }, pairedItem: { item: row } })));
		expect(maxInFlight).toBe(2);
	});

	it('with Requests in Flight = 4 keeps 4 items in flight and the input order in the output', async () => {
		useOperation(slowEcho);
		const { context } = createContext({
			parameters: { resource: 'lead', operation: 'create', requestsInFlight: 4 },
			items: items(10),
			continueOnFail: true,
		});
		const [output] = await router.call(context);
		expect(maxInFlight).toBe(4);
		expect(output.map((o) => o.pairedItem)).toEqual(
			Array.from({ length: 10 }, (_, item) => ({ item })),
		);
		expect(output[3].json).toEqual({ error: 'phone_number must be E.164' });
		expect(output.filter((o) => o.json.error === undefined).map((o) => o.json.row)).toEqual([
			0, 1, 2, 4, 5, 6, 7, 8, 9,
		]);
	});

	it('an operation that does not declare itself parallel runs one item at a time whatever Requests in Flight says', async () => {
		useOperation(slowEcho, false);
		const { context } = createContext({
			parameters: { resource: 'lead', operation: 'create', requestsInFlight: 4 },
			items: items(6),
			continueOnFail: true,
		});
		await router.call(context);
		expect(maxInFlight).toBe(1);
		expect(original.parallel).toBe(true);
	});

	it('without Continue On Fail stops at the failed item, naming it', async () => {
		useOperation(slowEcho);
		const { context } = createContext({
			parameters: { resource: 'lead', operation: 'create', requestsInFlight: 2 },
			items: items(10),
		});
		const error = await router.call(context).then(
			() => undefined,
			(e: NodeOperationError) => e,
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe('phone_number must be E.164');
		expect(error?.context.itemIndex).toBe(3);
		// no item after the failure's pair was started
		expect(Math.max(...started)).toBeLessThanOrEqual(5);
	});

	it('an operation returning several records gives several items paired to one input', async () => {
		useOperation(async (itemIndex) => [{ a: itemIndex }, { b: itemIndex }]);
		const { context } = createContext({
			parameters: { resource: 'lead', operation: 'create' },
			items: items(2),
		});
		const [output] = await router.call(context);
		expect(output).toEqual([
			{ json: { a: 0 }, pairedItem: { item: 0 } },
			{ json: { b: 0 }, pairedItem: { item: 0 } },
			{ json: { a: 1 }, pairedItem: { item: 1 } },
			{ json: { b: 1 }, pairedItem: { item: 1 } },
		]);
	});

	it('a NodeApiError keeps the service text and gets the item index', async () => {
		useOperation(campaignNotFound);
		const { context } = createContext({
			parameters: { resource: 'lead', operation: 'create' },
			items: items(2),
		});
		await expect(router.call(context)).rejects.toMatchObject({
			message: 'Campaign not found',
			context: { itemIndex: 0 },
		});
	});

	it('with Continue On Fail an API error becomes an error item with the service text and HTTP code', async () => {
		useOperation(campaignNotFound);
		const { context } = createContext({
			parameters: { resource: 'lead', operation: 'create' },
			items: items(1),
			continueOnFail: true,
		});
		const [output] = await router.call(context);
		expect(output).toEqual([
			{ json: { error: 'Campaign not found', httpCode: '404' }, pairedItem: { item: 0 } },
		]);
	});

	it('refuses an unknown operation', async () => {
		const { context } = createContext({ parameters: { resource: 'lead', operation: 'explode' } });
		await expect(router.call(context)).rejects.toThrow(
			'The operation "explode" of "lead" is not supported',
		);
	});
});

describe('router as an AI agent tool', () => {
	it('a failure is the tool answer (an error item), so the model reads what to correct; nothing is sent', async () => {
		const { context } = createContext({
			parameters: {
				resource: 'lead',
				operation: 'create',
				campaignId: { __rl: true, mode: 'id', value: '1' },
				phoneNumber: '0151 1234567',
			},
			node: { type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTool' },
		});
		const [output] = await router.call(context);
		expect(output).toEqual([
			{
				json: {
					error: expect.stringContaining('Phone Number must be a phone number in E.164 form'),
				},
				pairedItem: { item: 0 },
			},
		]);
	});
});
