/**
 * The typed resource/operation map: a picker value without an operation does
 * not compile. `npx tsc -p tsconfig.test.json --noEmit` checks the
 * `@ts-expect-error` below (ts-jest only transpiles).
 */
import * as lead from '../../../nodes/VoiceChatAssistant/actions/lead/Lead.resource';
import { resourceDescription } from '../../../nodes/VoiceChatAssistant/actions/resourceDescription';
import { resourceProperty, resources } from '../../../nodes/VoiceChatAssistant/actions/resources';
import { operationPicker } from '../../../nodes/VoiceChatAssistant/descriptions';

describe('the typed resource/operation map', () => {
	it('takes a picker whose values are operations of the resource', () => {
		const picker = operationPicker<typeof lead.operations>('lead', 'create', [
			{ name: 'Create', value: 'create' },
		]);
		expect(picker.options).toEqual([{ name: 'Create', value: 'create' }]);
	});

	it('refuses a picker value without an operation when compiling', () => {
		const picker = operationPicker<typeof lead.operations>('lead', 'create', [
			// @ts-expect-error Lead has no operation "archive"
			{ name: 'Archive', value: 'archive' },
		]);
		expect(picker.default).toBe('create');
	});

	it('refuses a default operation that does not exist when compiling', () => {
		// @ts-expect-error Lead has no operation "archive"
		const picker = operationPicker<typeof lead.operations>('lead', 'archive', []);
		expect(picker.default).toBe('archive');
	});

	it('has an operation for every value of every picker', () => {
		const modules: Record<
			string,
			{
				description: Array<{ name: string; options?: unknown }>;
				operations: Record<string, unknown>;
			}
		> = resources;
		const resourceValues = (resourceProperty.options as Array<{ value: string }>).map(
			(option) => option.value,
		);
		expect(resourceValues.sort()).toEqual(Object.keys(resources).sort());
		for (const [name, resource] of Object.entries(modules)) {
			const picker = resource.description.find((property) => property.name === 'operation');
			const values = (picker?.options as Array<{ value: string }>).map((option) => option.value);
			expect({ name, values: values.sort() }).toEqual({
				name,
				values: Object.keys(resource.operations).sort(),
			});
		}
	});
	it("puts a resource's picker before its operations' fields, in the order of its operations", () => {
		const description = resourceDescription('lead', 'create', lead.operations, [
			{ name: 'Create', value: 'create' },
		]);
		expect(description[0]).toMatchObject({ name: 'operation', options: [{ value: 'create' }] });
		expect(description.slice(1)).toEqual(
			Object.values(lead.operations).flatMap((operation) => operation.description),
		);
		// @ts-expect-error Lead has no operation "archive"
		resourceDescription('lead', 'archive', lead.operations, []);
	});

	it('lists the resources by name in the Resource picker', () => {
		const names = (resourceProperty.options as Array<{ name: string }>).map(
			(option) => option.name,
		);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});
});
