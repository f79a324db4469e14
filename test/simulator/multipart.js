'use strict';
/**
 * A small multipart/form-data parser working on the whole body Buffer.
 * Returns the parts in order: {name, filename, contentType, headers, data: Buffer}.
 * A part is a file part when its Content-Disposition carries a filename.
 */

class MultipartError extends Error {}

function boundaryOf(contentType) {
	const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType || '');
	if (!m) throw new MultipartError('multipart body without boundary');
	return m[1] || m[2];
}

/** Parses `form-data; name="a"; filename="b.pdf"` (quoted strings with escapes, RFC 5987 filename*). */
function parseDisposition(value) {
	const out = { type: '', params: {} };
	const re = /\s*([^=;\s]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*)))?\s*(?:;|$)/g;
	let first = true;
	let m;
	while ((m = re.exec(value)) && m[0] !== '') {
		if (first) {
			out.type = m[1].toLowerCase();
			first = false;
			continue;
		}
		const key = m[1].toLowerCase();
		let val = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] || '').trim();
		if (key.endsWith('*')) {
			const ext = /^([^']*)'[^']*'(.*)$/.exec(val);
			if (ext) {
				try {
					val = decodeURIComponent(ext[2]);
				} catch {
					/* keep raw */
				}
			}
			out.params[key.slice(0, -1)] = val;
		} else if (!(key in out.params)) {
			out.params[key] = val;
		}
	}
	return out;
}

function parseHeaders(text) {
	const headers = {};
	for (const line of text.split('\r\n')) {
		const i = line.indexOf(':');
		if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
	}
	return headers;
}

/**
 * @param {Buffer} body
 * @param {string} contentType the request's Content-Type header
 */
function parseMultipart(body, contentType) {
	const boundary = boundaryOf(contentType);
	const delimiter = Buffer.from(`--${boundary}`);
	const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
	const parts = [];
	let pos = body.indexOf(delimiter);
	if (pos < 0) throw new MultipartError('multipart body without opening boundary');
	pos += delimiter.length;
	for (;;) {
		// after a delimiter: "--" closes the body, otherwise CRLF and a part follows
		if (body[pos] === 0x2d && body[pos + 1] === 0x2d) break;
		while (body[pos] === 0x20 || body[pos] === 0x09) pos++; // transport padding
		if (body[pos] !== 0x0d || body[pos + 1] !== 0x0a)
			throw new MultipartError('malformed multipart delimiter');
		pos += 2;
		const headerEnd = body.indexOf('\r\n\r\n', pos);
		if (headerEnd < 0) throw new MultipartError('multipart part without header end');
		const headers = parseHeaders(body.subarray(pos, headerEnd).toString('utf8'));
		const dataStart = headerEnd + 4;
		const dataEnd = body.indexOf(nextDelimiter, dataStart);
		if (dataEnd < 0) throw new MultipartError('multipart body without closing boundary');
		const disposition = parseDisposition(headers['content-disposition'] || '');
		const filename = disposition.params.filename;
		parts.push({
			name: disposition.params.name === undefined ? null : disposition.params.name,
			filename: filename === undefined ? null : filename,
			contentType:
				headers['content-type'] || (filename !== undefined ? 'application/octet-stream' : null),
			headers,
			data: body.subarray(dataStart, dataEnd),
		});
		pos = dataEnd + nextDelimiter.length;
	}
	return parts;
}

module.exports = { parseMultipart, parseDisposition, MultipartError };
