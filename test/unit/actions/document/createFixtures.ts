/**
 * What the Document → Create tests share (create.test.ts here, and the lost answers in
 * test/unit/behaviours/createOnce/document.test.ts): the parameters, the file items, the upload as
 * the service receives it and the parts of its multipart body.
 */
import type nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';

import { parseMultipart } from '../../../helpers/multipart';

/** The documents of knowledgebase 4: the create posts here, the lookup after a lost answer reads here. */
export const PATH = '/api/user/knowledgebases/4/documents';
export const kbRef = { __rl: true, mode: 'id', value: '4' };

/** Document → Create in knowledgebase 4 with these parameters. */
export const createDocument = (parameters: object) => ({
	resource: 'document',
	operation: 'create',
	knowledgebaseId: kbRef,
	...parameters,
});

/** A website document named Site, from `source`: its main URL or a list of links. */
export const website = (source: object) =>
	createDocument({ name: 'Site', type: 'website', ...source });

/** An item with `content` inline (base64) in binary property `property`. */
export function fileItem(
	content: Buffer,
	fileName: string,
	mimeType: string,
	property = 'data',
): INodeExecutionData {
	const ext = fileName.split('.').pop();
	return {
		json: {},
		binary: {
			[property]: { data: content.toString('base64'), fileName, mimeType, fileExtension: ext },
		},
	};
}

/** An item whose file handbook.pdf lies in n8n's binary store under `id`. */
export const storedItem = (id: string, fileSize: string): INodeExecutionData => ({
	json: {},
	binary: {
		data: {
			id,
			data: 'filesystem-v2',
			fileName: 'handbook.pdf',
			mimeType: 'application/pdf',
			fileExtension: 'pdf',
			fileSize,
		},
	},
});

/** One upload as the service received it. */
export interface Upload {
	contentType: string;
	contentLength: string;
	body: Buffer;
}

/** A request body as a Buffer: nock hands a binary body over hex-encoded. */
export const asBuffer = (body: unknown) =>
	Buffer.isBuffer(body)
		? body
		: Buffer.from(body as string, /^[0-9a-f]+$/i.test(body as string) ? 'hex' : 'utf8');

/** An upload interceptor on `scope` that records the request in `uploads` and answers `status` with `answer`. */
export function recordUpload(
	scope: nock.Scope,
	uploads: Upload[],
	status: number,
	answer: object | string,
) {
	return scope.post(PATH).reply(function (_uri, body) {
		uploads.push({
			contentType: String(this.req.headers['content-type']),
			contentLength: String(this.req.headers['content-length']),
			body: asBuffer(body),
		});
		return [status, answer];
	});
}

/**
 * The multipart body of `upload`: the text parts `fields` (name and value) in this order, then the
 * file part with its file name, content type and the whole `file.content`.
 */
export function expectParts(
	upload: Upload,
	fields: Array<[string, string]>,
	file: { filename: string; contentType: string; content: Buffer },
) {
	expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
	const parts = parseMultipart(upload.body, upload.contentType);
	expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
		...fields.map(([name]) => [name, undefined, undefined]),
		['file', file.filename, file.contentType],
	]);
	fields.forEach(([, value], n) => expect(parts[n].content.toString()).toBe(value));
	expect(parts[fields.length].content.equals(file.content)).toBe(true);
}
