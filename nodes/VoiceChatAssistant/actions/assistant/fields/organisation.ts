import type { INodeProperties } from 'n8n-workflow';

export const organisation: INodeProperties[] = [
	{
		displayName: 'Folder Name or ID',
		name: 'folder_id',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getFolders' },
		default: '',
		description:
			'Folder the assistant is filed in (one at most). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Label Names or IDs',
		name: 'label_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getLabels' },
		default: [],
		description:
			'Labels of the assistant; they replace the current labels. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];
