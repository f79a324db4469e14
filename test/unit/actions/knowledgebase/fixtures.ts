/** The knowledgebase the service answers with in the Knowledgebase tests, and the picker's value for it. */
export const KNOWLEDGEBASE = {
	id: 4,
	name: 'FAQ',
	description: 'Questions',
	status: 'active',
	documents_count: 1,
	assistants_count: 0,
};

export const KNOWLEDGEBASE_REF = { __rl: true, mode: 'list', value: '4' };
