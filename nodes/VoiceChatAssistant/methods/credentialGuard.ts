import type {
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
	INodeType,
	ResourceMapperFields,
} from 'n8n-workflow';

/**
 * The pickers (options, searchable lists, the template variables' mapper)
 * ask the service with the node's credential. The editor asks for them as soon
 * as a node is added, before a credential is chosen: without one, a picker
 * answers empty (no request, no "Error fetching options") and loads once the
 * credential is set.
 */
function credentialChosen(ctx: ILoadOptionsFunctions): boolean {
	const chosen = ctx.getNode().credentials?.voiceChatAssistantApi;
	return Boolean(chosen && (chosen.id || chosen.name));
}

type Methods = NonNullable<INodeType['methods']>;
type LoadOptions = NonNullable<Methods['loadOptions']>;
type ListSearch = NonNullable<Methods['listSearch']>;
type ResourceMapping = NonNullable<Methods['resourceMapping']>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMethod = (this: ILoadOptionsFunctions, ...args: any[]) => Promise<unknown>;

function guard<M extends Record<string, AnyMethod>>(methods: M, empty: () => unknown): M {
	const guarded: Record<string, AnyMethod> = {};
	for (const [name, method] of Object.entries(methods)) {
		guarded[name] = async function (this: ILoadOptionsFunctions, ...args: unknown[]) {
			if (!credentialChosen(this)) return empty();
			return await method.apply(this, args);
		};
	}
	return guarded as M;
}

export const whenCredentialChosen = {
	loadOptions: (methods: LoadOptions): LoadOptions =>
		guard(methods, (): INodePropertyOptions[] => []),
	listSearch: (methods: ListSearch): ListSearch =>
		guard(methods, (): INodeListSearchResult => ({ results: [] })),
	resourceMapping: (methods: ResourceMapping): ResourceMapping =>
		guard(
			methods,
			(): ResourceMapperFields => ({ fields: [], emptyFieldsNotice: 'Choose a credential first.' }),
		),
};
