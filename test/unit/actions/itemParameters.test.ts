import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { itemParameter } from '../../../nodes/VoiceChatAssistant/actions/itemParameters';

/** A run of the node: its stored parameters, and what n8n answers for each item (counted). */
function run(stored: INodeParameters | undefined, perItem: (name: string, itemIndex: number) => unknown) {
	const calls: string[] = [];
	const ctx = {
		getNode: () => ({ parameters: stored }),
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown, options?: { extractValue?: boolean }) => {
			calls.push(`${name}#${itemIndex}${options?.extractValue ? ' (value)' : ''}`);
			const value = perItem(name, itemIndex);
			return value === undefined ? fallback : value;
		},
	} as unknown as IExecuteFunctions;
	return { ctx, calls };
}

describe('itemParameter: parameters read for every item', () => {
	it('a parameter without an expression is read from n8n for the first item only, one with an expression for each item', () => {
		const stored = { phoneNumber: '={{ $json.phone }}', campaignId: { __rl: true, mode: 'id', value: '7' }, options: { onDuplicate: 'skip' } };
		const { ctx, calls } = run(stored, (name, i) =>
			name === 'phoneNumber' ? `+4915100000${i}` : name === 'campaignId' ? '7' : name === 'options.onDuplicate' ? 'skip' : undefined,
		);
		const read = [0, 1, 2].map((i) => [
			itemParameter(ctx, 'phoneNumber', i, ''),
			itemParameter(ctx, 'campaignId', i, undefined, { extractValue: true }),
			itemParameter(ctx, 'options.onDuplicate', i, 'useStored'),
			itemParameter(ctx, 'secondaryContacts', i, {}),
		]);
		expect(read).toEqual([
			['+49151000000', '7', 'skip', {}],
			['+49151000001', '7', 'skip', {}],
			['+49151000002', '7', 'skip', {}],
		]);
		expect(calls).toEqual([
			'phoneNumber#0',
			'campaignId#0 (value)',
			'options.onDuplicate#0',
			'secondaryContacts#0',
			'phoneNumber#1',
			'phoneNumber#2',
		]);
	});

	it('an expression deep inside a collection (a variable\'s value) makes the whole parameter per item', () => {
		const stored = { variables: { values: [{ key: 'customer_name', value: '={{ $json.name }}' }] } };
		const names = ['Ann', 'Bob'];
		const { ctx, calls } = run(stored, (name, i) => (name === 'variables' ? { values: [{ key: 'customer_name', value: names[i] }] } : undefined));
		expect([0, 1].map((i) => itemParameter(ctx, 'variables', i, {}))).toEqual([
			{ values: [{ key: 'customer_name', value: 'Ann' }] },
			{ values: [{ key: 'customer_name', value: 'Bob' }] },
		]);
		expect(calls).toEqual(['variables#0', 'variables#1']);
	});

	it('the value read with and without extractValue is kept apart', () => {
		const stored = { campaignId: { __rl: true, mode: 'list', value: '7' } };
		const { ctx } = run(stored, (_name, _i) => ({ __rl: true, mode: 'list', value: '7' }));
		expect(itemParameter(ctx, 'campaignId', 0)).toEqual({ __rl: true, mode: 'list', value: '7' });
		const extracting = run(stored, () => '7');
		expect(itemParameter(extracting.ctx, 'campaignId', 0, undefined, { extractValue: true })).toBe('7');
		expect(itemParameter(extracting.ctx, 'campaignId', 1)).toBe('7');
		expect(extracting.calls).toEqual(['campaignId#0 (value)', 'campaignId#1']);
	});

	it('an object handed out is a copy: a caller that changes it does not change what the next item gets', () => {
		const { ctx } = run({ secondaryContacts: { contacts: [{ phoneNumber: '+4915100000001' }] } }, () => ({ contacts: [{ phoneNumber: '+4915100000001' }] }));
		const first = itemParameter(ctx, 'secondaryContacts', 0, {}) as { contacts: unknown[] };
		first.contacts.push({ phoneNumber: '+4915100000002' });
		expect(itemParameter(ctx, 'secondaryContacts', 1, {})).toEqual({ contacts: [{ phoneNumber: '+4915100000001' }] });
	});

	it('each run reads anew (a changed workflow, another execution), and without stored parameters every item is read', () => {
		const first = run({ options: { onDuplicate: 'skip' } }, () => 'skip');
		expect(itemParameter(first.ctx, 'options.onDuplicate', 0, 'useStored')).toBe('skip');
		const second = run({ options: { onDuplicate: 'allow' } }, () => 'allow');
		expect(itemParameter(second.ctx, 'options.onDuplicate', 0, 'useStored')).toBe('allow');
		const unknown = run(undefined, (_name, i) => `value ${i}`);
		expect([0, 1].map((i) => itemParameter(unknown.ctx, 'anything', i))).toEqual(['value 0', 'value 1']);
		expect(unknown.calls).toEqual(['anything#0', 'anything#1']);
	});
});
