/**
 * Folders and labels, run as real workflows against the simulator (an
 * assistant filed in each with Assistant → Update).
 */
import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import { byId, simulatorForTests } from '../helpers/workflows';

const { exercised, operations } = operationRunner();

describe('Folder and Label: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests();
	const assistants = operations(sim, 'assistant');
	const assistant = (id: number) => sim.state.assistants.find((a: any) => a.id === id);

	it.each(['folder', 'label'])(
		'%s: Create, Get Many, Update, file an assistant, Delete (the assistant is kept)',
		async (resource) => {
			const folderOrLabel = operations(sim, resource);
			const [created] = await folderOrLabel('create', {
				name: `Team ${resource}`,
				options: { color: 'teal' },
			});
			expect(created).toMatchObject({
				name: `Team ${resource}`,
				color: 'teal',
				assistants_count: 0,
			});
			await expect(
				folderOrLabel('create', { name: `team ${resource}`, options: {} }),
			).rejects.toThrow('The name has already been taken.');

			const [renamed] = await folderOrLabel('update', {
				[`${resource}Id`]: byId(created.id),
				updateFields: { name: `Renamed ${resource}` },
			});
			expect(renamed).toMatchObject({ id: created.id, name: `Renamed ${resource}`, color: 'teal' });

			const field =
				resource === 'folder' ? { folder_id: created.id } : { label_ids: [1, created.id] };
			await assistants('update', { assistantId: byId(2), mode: 'keep', updateFields: field });
			const listed = await folderOrLabel('getMany', { returnAll: true });
			expect(listed.find((r) => r.id === created.id)).toMatchObject({ assistants_count: 1 });
			expect(await folderOrLabel('getMany', { returnAll: false, limit: 1 })).toHaveLength(1);

			expect(await folderOrLabel('delete', { [`${resource}Id`]: byId(created.id) })).toEqual([
				expect.objectContaining({ deleted: true, id: created.id }),
			]);
			expect(assistant(2)).toBeDefined();
			if (resource === 'folder') expect(assistant(2).folder_id).toBeNull();
			else expect(assistant(2).label_ids).toEqual([1]);
			await expect(
				folderOrLabel('delete', { [`${resource}Id`]: byId(created.id) }),
			).rejects.toThrow(`${resource === 'folder' ? 'Folder' : 'Label'} not found`);
		},
	);

	it('ran every operation of Folder and Label', () => {
		expect(ownRuns('organisation', exercised)).toEqual([...RESOURCE_FILES.organisation].sort());
	});
});
