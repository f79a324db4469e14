import nock from 'nock';

import { run } from '../helpers';

/** One refusal of Create or Update: what is wrong, the node parameters, the message expected. */
export type Refusal = [string, object, string];

/** Each row is refused with its message before anything is sent. */
export function itRefuses(rows: Refusal[]) {
	it.each(rows)('refuses %s, with no request sent', async (_what, parameters, message) => {
		await expect(run(parameters)).rejects.toThrow(message);
		expect(nock.pendingMocks()).toEqual([]);
	});
}
