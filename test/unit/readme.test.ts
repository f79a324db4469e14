/**
 * The README stays a short page for users, and its operations table lists
 * exactly the operations the node offers: a resource or operation added to
 * the node without its README mention (or removed from the node and left in
 * the README) fails here.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { documentedOperations, nodeOperations } from '../helpers/nodeOperations';

const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');

/** The most bytes the README may have. */
const MAX_BYTES = 12_000;

/** The README's "## Operations" section. */
function operationsSection(): string {
	const match = /^## Operations\s*$([\s\S]*?)(?=^## )/m.exec(README);
	if (!match) throw new Error('README.md has no "## Operations" section');
	return match[1];
}

/**
 * Resource → the operation names of its row: `| **Resource** | A (notes) · B · Enable / Disable X |`.
 * Notes in brackets are dropped; "Enable / Disable X" names two operations.
 */
function readmeOperations(): Map<string, string[]> {
	return documentedOperations(operationsSection());
}

describe('README', () => {
	it(`stays at most ${MAX_BYTES} bytes (details go to docs/)`, () => {
		expect(Buffer.byteLength(README, 'utf8')).toBeLessThanOrEqual(MAX_BYTES);
	});

	it('has a row in the operations table for every resource of the node, and none other', () => {
		expect([...readmeOperations().keys()].sort()).toEqual([...nodeOperations().keys()].sort());
	});

	it.each([...nodeOperations()])(
		'names every operation of %s in its row, and none it lacks',
		(resource, operations) => {
			expect([...(readmeOperations().get(resource) ?? [])].sort()).toEqual([...operations].sort());
		},
	);

	it('reads the table as meant: notes in brackets dropped, "Enable / Disable X" as two operations', () => {
		const rows = readmeOperations();
		expect(rows.get('Lead')).toContain('Create');
		expect(rows.get('Assistant')).toEqual(
			expect.arrayContaining(['Enable Inbound Webhook', 'Disable Inbound Webhook']),
		);
	});
});
