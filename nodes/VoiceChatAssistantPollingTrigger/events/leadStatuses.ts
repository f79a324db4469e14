import { LEAD_STATUSES } from '../../VoiceChatAssistant/descriptions/leadStatuses';

/**
 * The statuses of the watched leads in a compact form for n8n's static data,
 * which n8n writes to its database whole. A map of lead id → status costs
 * about 20 bytes a lead (400 kB for 20,000 leads); this form costs about half
 * a byte a lead for a campaign's leads (ids that come in steps):
 *
 * - `ids`: the ids in ascending order as runs of equal steps, each run two
 *   numbers (the step from the previous id, how many more ids follow with the
 *   same step), every number written in base 32 with a continuation flag
 *   (one character up to 31, two up to 1,023, ...). 100,000 leads imported
 *   together are a few characters; the worst case (every step different) is
 *   about two characters a lead.
 * - `codes`: the status of each lead in the order of `ids`, two leads a
 *   character (eight codes: the seven statuses SPEC's lead list names, and
 *   one for any other, kept by name in `other`).
 */
export interface PackedStatuses {
	ids: string;
	codes: string;
	/** Leads whose status is not one of SPEC's: id → status. */
	other?: Record<string, string>;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const OTHER = 7;

const CODES = new Map<string, number>(LEAD_STATUSES.map((status, index) => [status, index]));

function codeOf(status: string): number {
	return CODES.get(status) ?? OTHER;
}

function writeNumber(out: string[], value: number) {
	let rest = value;
	while (rest >= 32) {
		out.push(ALPHABET[32 + (rest % 32)]);
		rest = Math.floor(rest / 32);
	}
	out.push(ALPHABET[rest]);
}

function readNumbers(text: string): number[] {
	const numbers: number[] = [];
	let value = 0;
	let scale = 1;
	for (const char of text) {
		const digit = ALPHABET.indexOf(char);
		if (digit < 0) throw new Error(`invalid character "${char}" in the saved lead ids`);
		if (digit >= 32) {
			value += (digit - 32) * scale;
			scale *= 32;
			continue;
		}
		numbers.push(value + digit * scale);
		value = 0;
		scale = 1;
	}
	return numbers;
}

/**
 * Packs the statuses. The map is put in ascending id order on the way (when a
 * round met new leads out of order): the next packing of the same map then
 * needs no sorting.
 */
export function packStatuses(statuses: Map<number, string>): PackedStatuses {
	let sorted = true;
	let last = -Infinity;
	for (const id of statuses.keys()) {
		if (id < last) {
			sorted = false;
			break;
		}
		last = id;
	}
	if (!sorted) {
		const entries = [...statuses].sort((a, b) => a[0] - b[0]);
		statuses.clear();
		for (const [id, status] of entries) statuses.set(id, status);
	}
	const ids = new Float64Array(statuses.size);
	const codes = new Uint8Array(statuses.size + 1);
	const other: Record<string, string> = {};
	let n = 0;
	for (const [id, status] of statuses) {
		ids[n] = id;
		const code = codeOf(status);
		if (code === OTHER) other[String(id)] = status;
		codes[n++] = code;
	}
	const idText: string[] = [];
	let previous = 0;
	for (let i = 0; i < n; ) {
		const step = ids[i] - previous;
		let run = 1;
		while (i + run < n && ids[i + run] - ids[i + run - 1] === step) run++;
		writeNumber(idText, step);
		writeNumber(idText, run - 1);
		previous = ids[i + run - 1];
		i += run;
	}
	let codeText = '';
	for (let i = 0; i < n; i += 2)
		codeText += ALPHABET[codes[i] * 8 + (i + 1 < n ? codes[i + 1] : 0)];
	const packed: PackedStatuses = { ids: idText.join(''), codes: codeText };
	if (Object.keys(other).length) packed.other = other;
	return packed;
}

export function unpackStatuses(packed: PackedStatuses): Map<number, string> {
	const statuses = new Map<number, string>();
	const numbers = readNumbers(packed.ids);
	const ids: number[] = [];
	let previous = 0;
	for (let i = 0; i + 1 < numbers.length; i += 2) {
		for (let n = 0; n <= numbers[i + 1]; n++) {
			previous += numbers[i];
			ids.push(previous);
		}
	}
	ids.forEach((id, index) => {
		const pair = ALPHABET.indexOf(packed.codes[index >> 1] ?? 'A');
		const code = index % 2 === 0 ? pair >> 3 : pair & 7;
		statuses.set(
			id,
			code === OTHER ? (packed.other?.[String(id)] ?? 'unknown') : LEAD_STATUSES[code],
		);
	});
	return statuses;
}
