/**
 * The files of this folder together run every operation of the node: the
 * lists of RESOURCE_FILES (helpers/operations.ts), one per file, are the
 * node's operations, each in exactly one list, and each resource lives in
 * exactly one file. Each file checks on its own that it ran its list.
 */
import { readdirSync } from 'fs';

import { allOperations, RESOURCE_FILES, resourcesOf } from '../helpers/operations';

describe('workflow tests grouped by resource', () => {
	const all = allOperations();
	const listed = Object.values(RESOURCE_FILES).flat();

	it('every operation of every resource is in the list of one file', () => {
		expect(all.length).toBeGreaterThanOrEqual(80);
		expect(all.filter((name) => !listed.includes(name))).toEqual([]);
		// every operation a file promises to run is one the node offers
		expect(listed.filter((name) => !all.includes(name))).toEqual([]);
		// and no operation is in two lists
		expect(listed.filter((name, index) => listed.indexOf(name) !== index)).toEqual([]);
		expect([...listed].sort()).toEqual([...all].sort());
	});

	it('each resource lives in exactly one file', () => {
		const resources = Object.keys(RESOURCE_FILES).flatMap(resourcesOf);
		expect(resources.filter((resource, index) => resources.indexOf(resource) !== index)).toEqual(
			[],
		);
		expect([...resources].sort()).toEqual(
			[...new Set(all.map((name) => name.split(':')[0]))].sort(),
		);
	});

	it('each list has its file in this folder, and each file here its list', () => {
		const files = readdirSync(__dirname)
			.filter((file) => file.endsWith('.test.ts') && file !== 'coverage.test.ts')
			.map((file) => file.slice(0, -'.test.ts'.length));
		expect(files.sort()).toEqual(Object.keys(RESOURCE_FILES).sort());
	});
});
