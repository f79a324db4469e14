import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList, unwrap } from '../../transport';
import { getClock } from '../../transport/clock';
import { knowledgebaseLocator } from '../../descriptions';
import { createOnce } from '../../transport/createOnce';
import type { CreateBody } from '../../transport/createOnce';
import { nameAndDescription } from '../knowledgebase/shared';
import { checkNumberRange, checkRequired, checkUrl, refuse } from '../validation';
import { documentPath } from './shared';
import type { FileType } from './upload';
import { readUploadFile } from './upload';
import { optionsCollection, requiredNameField } from '../commonFields';

const properties: INodeProperties[] = [
	knowledgebaseLocator,
	requiredNameField('document'),
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'auto',
		description: 'What the document is: a website to scrape, or a file from the input item',
		options: [
			{
				name: 'DOCX File',
				value: 'docx',
				description: 'A Word document from the input binary data',
			},
			{
				name: 'From File (Detect)',
				value: 'auto',
				description: 'A PDF, TXT or DOCX file; the type is taken from its MIME type or extension',
			},
			{ name: 'PDF File', value: 'pdf', description: 'A PDF from the input binary data' },
			{
				name: 'TXT File',
				value: 'txt',
				description: 'A plain text file from the input binary data',
			},
			{ name: 'Website', value: 'website', description: 'Web pages, scraped by the service' },
		],
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		description:
			'Name of the binary property of the input item that holds the file (at most 20 MB)',
		displayOptions: { show: { type: ['auto', 'pdf', 'txt', 'docx'] } },
	},
	{
		displayName: 'Website Source',
		name: 'websiteSource',
		type: 'options',
		default: 'url',
		displayOptions: { show: { type: ['website'] } },
		options: [
			{
				name: 'Main URL',
				value: 'url',
				description: 'One address; the service follows relative links from it',
			},
			{ name: 'List of Links', value: 'links', description: 'Several addresses' },
		],
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/faq',
		description: 'Main URL to scrape',
		displayOptions: { show: { type: ['website'], websiteSource: ['url'] } },
	},
	{
		displayName: 'Links',
		name: 'links',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Link',
		default: {},
		description: 'Addresses to scrape, each a valid URL',
		displayOptions: { show: { type: ['website'], websiteSource: ['links'] } },
		options: [
			{
				displayName: 'Link',
				name: 'link',
				values: [{ displayName: 'URL', name: 'link', type: 'string', default: '' }],
			},
		],
	},
	optionsCollection([
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			description: 'What the document is about, at most 255 characters',
		},
		{
			displayName: 'Relative Links Limit',
			name: 'relativeLinksLimit',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 50 },
			default: 10,
			description: 'Website only: how many relative links the service follows (1-50)',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description: 'With Wait Until Processed: how long to wait before failing',
		},
		{
			displayName: 'Wait Until Processed',
			name: 'waitUntilProcessed',
			type: 'boolean',
			default: false,
			description:
				'Whether to wait until the service has processed the document (status active or failed) and output the final document',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['create'] } },
	properties,
);

/** Statuses of a document that is still being worked on; any other status ends the wait. */
const WORKING_STATUSES = ['processing', 'pending', 'queued', 'in_progress', 'in-progress'];

async function waitUntilProcessed(
	ctx: IExecuteFunctions,
	itemIndex: number,
	path: string,
	first: IDataObject,
	timeoutMs: number,
): Promise<IDataObject> {
	const clock = getClock();
	const deadline = clock.now() + timeoutMs;
	let document = first;
	let delay = 1000;
	while (WORKING_STATUSES.includes(String(document.status))) {
		if (clock.now() + delay > deadline) {
			refuse(
				ctx,
				itemIndex,
				`Document ${document.id} ("${document.name}") was not processed within ${timeoutMs / 1000} s; its last status is "${document.status}"`,
			);
		}
		await clock.sleep(delay);
		delay = Math.min(15_000, Math.round(delay * 1.5));
		document = unwrap(await apiRequest.call(ctx, 'GET', path, { itemIndex }));
	}
	if (document.status === 'failed') {
		refuse(
			ctx,
			itemIndex,
			`Document ${document.id} ("${document.name}") failed to process; its last status is "failed"`,
		);
	}
	if (document.status !== 'active') {
		// a status the node does not know: it stops waiting rather than wait for ever, and says so
		return {
			...document,
			waitNote: `Stopped waiting: status "${String(document.status)}" is not one of ${WORKING_STATUSES.join(', ')}`,
		};
	}
	return document;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const base = documentPath(this, itemIndex, false);
	const name = this.getNodeParameter('name', itemIndex, '') as string;
	checkRequired(this, itemIndex, 'Name', name);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fields = nameAndDescription(
		this,
		itemIndex,
		options.description ? { name, description: options.description } : { name },
	);
	const type = this.getNodeParameter('type', itemIndex, 'auto') as FileType | 'auto' | 'website';

	let body: CreateBody | (() => CreateBody);
	if (type === 'website') {
		const json: IDataObject = { ...fields, type: 'website' };
		if (this.getNodeParameter('websiteSource', itemIndex, 'url') === 'url') {
			const url = String(this.getNodeParameter('url', itemIndex, '')).trim();
			if (!url)
				refuse(
					this,
					itemIndex,
					'A website document needs a URL or a list of links',
					'Enter the URL, or switch Website Source to List of Links.',
				);
			checkUrl(this, itemIndex, 'URL', url);
			json.url = url;
		} else {
			const entries = ((this.getNodeParameter('links', itemIndex, {}) as IDataObject).link ??
				[]) as IDataObject[];
			const links = entries.map((entry) => String(entry.link ?? '').trim()).filter(Boolean);
			if (!links.length)
				refuse(
					this,
					itemIndex,
					'A website document needs a URL or a list of links',
					'Add at least one link.',
				);
			links.forEach((link, n) => checkUrl(this, itemIndex, `Links → Link ${n + 1}`, link));
			json.links = links.map((link) => ({ link }));
		}
		if (options.relativeLinksLimit !== undefined) {
			checkNumberRange(this, itemIndex, 'Relative Links Limit', options.relativeLinksLimit, 1, 50, {
				integer: true,
			});
			json.relative_links_limit = options.relativeLinksLimit;
		}
		body = json;
	} else {
		const property = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
		const file = await readUploadFile(this, itemIndex, property, type);
		// a fresh form per attempt; the file is read anew each time it is sent (a StoredFile opens
		// the binary store again, an in-memory File is read from the start)
		body = () => {
			const form = new FormData();
			form.append('name', String(fields.name));
			if (fields.description !== undefined) form.append('description', String(fields.description));
			form.append('type', file.fileType);
			// appended without a file name, FormData keeps the File itself (its name goes into the part)
			form.append('file', file.file);
			return form;
		};
	}

	// A document's name in its knowledgebase is its natural key here (the service does not refuse
	// a second one): after an unknown outcome the document is looked up by name before uploading again.
	const created = await createOnce(this, itemIndex, {
		path: base,
		body,
		noun: 'document',
		policy: {
			kind: 'findCreated',
			candidates: async () => asList(await apiRequest.call(this, 'GET', base, { itemIndex })),
			matches: (candidate) => candidate.name === fields.name,
		},
	});
	if (!options.waitUntilProcessed) return created;
	const timeoutSeconds = Number(options.timeoutSeconds ?? 300);
	const processed = await waitUntilProcessed(
		this,
		itemIndex,
		`${base}/${created.id}`,
		created,
		timeoutSeconds * 1000,
	);
	return created.created_by_earlier_attempt
		? { ...processed, created_by_earlier_attempt: true }
		: processed;
}
