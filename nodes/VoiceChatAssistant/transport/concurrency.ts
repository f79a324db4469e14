/** Work on many values with a bounded number in flight, results kept in order. */

/**
 * Runs `task` for every value, at most `concurrency` at a time; results in
 * the order of `values`. No further value is started after a task failed, or
 * once `stop()` says so.
 */
export async function mapInOrder<V, R>(
	values: V[],
	concurrency: number,
	task: (value: V) => Promise<R>,
	stop: () => boolean = () => false,
): Promise<R[]> {
	const results: R[] = new Array(values.length);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (next < values.length && !failed && !stop()) {
			const index = next++;
			const running = task(values[index]);
			// after a failure no further value is started; the failure itself reaches Promise.all below
			running.then(undefined, () => (failed = true));
			results[index] = await running;
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, worker));
	return results;
}
