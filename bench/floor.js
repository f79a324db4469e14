/**
 * The rate-limit floor: the earliest the n-th request may start (in seconds)
 * under both windows of `limits` ({ perMinute, windowMs, burst, burstWindowMs }),
 * as the limiter computes it. What the benchmarks compare an import against.
 */
function floorSeconds(n, limits) {
	const starts = [];
	for (let i = 0; i < n; i++) {
		let t = starts.length ? starts[starts.length - 1] : 0;
		if (starts.length >= limits.perMinute) t = Math.max(t, starts[starts.length - limits.perMinute] + limits.windowMs);
		if (starts.length >= limits.burst) t = Math.max(t, starts[starts.length - limits.burst] + limits.burstWindowMs);
		starts.push(t);
	}
	return starts[n - 1] / 1000;
}

module.exports = { floorSeconds };
