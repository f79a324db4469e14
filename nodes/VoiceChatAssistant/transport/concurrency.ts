/** Work on many values with a bounded number in flight, results kept in order. */

/**
 * Slots for work in flight: at most `limit()` holders at a time. The limit is
 * read whenever a slot is taken, so it may follow the budget while the work
 * runs. A holder that has to wait (a backoff before sending again) gives its
 * slot back for the wait: other work proceeds meanwhile. Holders coming back
 * from such a wait get a slot before new work starts.
 */
export class InFlightSlots {
	private active = 0;

	/** Holders coming back from a wait: served first. */
	private readonly returning: Array<() => void> = [];

	private readonly newcomers: Array<() => void> = [];

	/** Keys (item indexes) whose slot is given back for a wait. */
	private readonly away = new Set<number>();

	constructor(readonly limit: () => number) {}

	/** Holders now. */
	get inFlight(): number {
		return this.active;
	}

	/** Waits for a slot; `returning` holders are served before new ones. */
	async take(returning = false): Promise<void> {
		const ahead = this.returning.length + (returning ? 0 : this.newcomers.length);
		if (!ahead && this.active < Math.max(1, this.limit())) {
			this.active++;
			return;
		}
		await new Promise<void>((resolve) =>
			(returning ? this.returning : this.newcomers).push(resolve),
		);
	}

	/** Gives a slot back; the next waiter (returning ones first) takes it. */
	give(): void {
		this.active--;
		this.handOut();
	}

	private handOut() {
		const limit = Math.max(1, this.limit());
		while (this.active < limit) {
			const next = this.returning.shift() ?? this.newcomers.shift();
			if (!next) return;
			this.active++;
			next();
		}
	}

	/**
	 * Runs `wait` with the slot of `key` given back (once per key: a second
	 * request of the same holder waiting at the same time changes nothing), and
	 * takes a slot again before returning.
	 */
	async giveBackWhile<T>(key: number, wait: () => Promise<T>): Promise<T> {
		if (this.away.has(key)) return await wait();
		this.away.add(key);
		this.give();
		try {
			return await wait();
		} finally {
			await this.take(true);
			this.away.delete(key);
		}
	}
}

/**
 * Runs `task` for every value, at most `concurrency` at a time (a number, or
 * slots whose limit may change); results in the order of `values`. No
 * further value is started after a task failed, or once `stop()` says so.
 * The first failure is thrown once the tasks already started have ended.
 */
export async function mapInOrder<V, R>(
	values: V[],
	concurrency: number | InFlightSlots,
	task: (value: V, index: number) => Promise<R>,
	stop: () => boolean = () => false,
): Promise<R[]> {
	const slots =
		typeof concurrency === 'number' ? new InFlightSlots(() => concurrency) : concurrency;
	const results: R[] = new Array(values.length);
	const running = new Set<Promise<void>>();
	let failure: { error: unknown } | undefined;
	for (let index = 0; index < values.length; index++) {
		await slots.take();
		if (failure || stop()) {
			slots.give();
			break;
		}
		const run = (async () => {
			try {
				results[index] = await task(values[index], index);
			} catch (error) {
				failure ??= { error };
			} finally {
				slots.give();
			}
		})();
		running.add(run);
		void run.then(() => running.delete(run));
	}
	await Promise.all(running);
	if (failure) throw failure.error;
	return results;
}
