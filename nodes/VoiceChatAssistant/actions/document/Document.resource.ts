import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const operations = { create, delete: deleteOperation, get, getMany, update };

export const description = resourceDescription('document', 'getMany', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Add a document to a knowledgebase',
		description: 'Add a website or a file (PDF, TXT, DOCX) to a knowledgebase',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a document',
		description: 'Delete a document, its embeddings and processed content permanently',
	},
	{
		name: 'Get',
		value: 'get',
		action: 'Get a document',
		description: 'Get a document with its processing status',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many documents of a knowledgebase',
		description: 'List the documents of a knowledgebase',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a document',
		description: 'Change the name or description of a document',
	},
]);
