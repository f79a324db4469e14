/**
 * Preload of bench/upload-memory.js for its "live" measurement: n8n runs as
 * `node --expose-gc --require bench/upload-memory-gc.js .../n8n execute`, and
 * this forces a full garbage collection whenever the memory of ArrayBuffers
 * (where file bytes live) has grown by 4 MB since the last one. The peak RSS
 * then counts the bytes something still holds, plus at most a few MB of
 * garbage, instead of every chunk V8 has not collected yet (in an n8n process
 * its young generation is large, and a 20 MB upload ends before any GC runs).
 * Without --expose-gc it does nothing.
 */
const STEP_BYTES = 4 * 1024 * 1024;

if (typeof global.gc === 'function') {
	let base = process.memoryUsage().arrayBuffers;
	setInterval(() => {
		const now = process.memoryUsage().arrayBuffers;
		if (now - base >= STEP_BYTES) {
			global.gc();
			base = process.memoryUsage().arrayBuffers;
		} else if (now < base) {
			// V8 frees the backing stores after a GC, on a background thread
			base = now;
		}
	}, 5).unref();
}
