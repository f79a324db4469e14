/**
 * A transcript as one text, the same wherever it is shown (the action node's
 * Simplify, the triggers' `transcript_text`). Imports nothing of the nodes.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A string as it is; an array of turns (`{text|content, sender|role}`, or
 * strings) as `speaker: text` lines, empty turns left out; anything else as an
 * empty string.
 */
export function transcriptText(transcript: unknown): string {
	if (typeof transcript === 'string') return transcript;
	if (!Array.isArray(transcript)) return '';
	return transcript
		.map((turn) => {
			if (typeof turn === 'string') return turn;
			if (!isRecord(turn)) return '';
			const text = turn.text ?? turn.content ?? '';
			const speaker = turn.sender ?? turn.role;
			const line = typeof text === 'string' ? text : JSON.stringify(text);
			return speaker !== undefined && speaker !== null && speaker !== ''
				? `${String(speaker)}: ${line}`
				: line;
		})
		.filter((line) => line !== '')
		.join('\n');
}

/** Whether a value is a transcript (a string, or a list of turns). */
export function isTranscript(value: unknown): boolean {
	return typeof value === 'string' || Array.isArray(value);
}
