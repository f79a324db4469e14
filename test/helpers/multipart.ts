/** A small multipart/form-data parser for asserting upload bodies part by part. */
export interface Part {
	name: string;
	filename?: string;
	contentType?: string;
	content: Buffer;
}

export function parseMultipart(body: Buffer, contentType: string): Part[] {
	const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
	if (!boundary) throw new Error(`no boundary in ${contentType}`);
	const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const parts: Part[] = [];
	let start = body.indexOf(delimiter);
	while (start !== -1) {
		const next = body.indexOf(delimiter, start + delimiter.length);
		if (next === -1) break;
		const chunk = body.subarray(start + delimiter.length + 2, next - 2); // skip CRLF after the delimiter and before the next
		const split = chunk.indexOf('\r\n\r\n');
		const head = chunk.subarray(0, split).toString('utf8');
		const name = /content-disposition:[^\r\n]*?;\s*name="([^"]*)"/i.exec(head);
		const filename = /content-disposition:[^\r\n]*?;\s*filename="([^"]*)"/i.exec(head);
		const type = /content-type:\s*([^\r\n]+)/i.exec(head);
		parts.push({
			name: name?.[1] ?? '',
			filename: filename?.[1],
			contentType: type?.[1].trim(),
			content: chunk.subarray(split + 4),
		});
		start = next;
	}
	return parts;
}
