/**
 * n8n's credentials helper, as far as a workflow run with our credential
 * needs it: `getDecrypted` hands out the test's credential data (with the
 * credential type's defaults for fields left out, as n8n does), and
 * `authenticate` applies the credential type's own `authenticate` definition,
 * resolving its expressions (`=Bearer {{$credentials.apiKey}}`) with the
 * workflow's expression engine the way n8n's CredentialsHelper does.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression } from 'n8n-workflow';

import { VoiceChatAssistantApi } from '../../../credentials/VoiceChatAssistantApi.credentials';
import { VoiceChatAssistantWhatsAppSigningApi } from '../../../credentials/VoiceChatAssistantWhatsAppSigningApi.credentials';

export const credentialTypes: Record<string, ICredentialType> = {
	voiceChatAssistantApi: new VoiceChatAssistantApi(),
	voiceChatAssistantWhatsAppSigningApi: new VoiceChatAssistantWhatsAppSigningApi(),
};

function credentialType(name: string): ICredentialType {
	const type = credentialTypes[name];
	if (!type) throw new Error(`Unknown credential type "${name}" in a test workflow`);
	return type;
}

/**
 * A value of a credential type's definition resolved for `node` as n8n resolves it: its
 * expressions (`{{$credentials.apiKey}}`) read the credential data.
 */
export function resolveWithCredentials(
	workflow: Workflow,
	node: INode,
	value: string,
	credentials: ICredentialDataDecryptedObject,
): unknown {
	return workflow.expression.getSimpleParameterValue(
		node,
		value,
		'internal',
		{ $credentials: credentials },
		undefined,
		'',
	);
}

export class TestCredentialsHelper extends ICredentialsHelper {
	/** Every request this helper authenticated (after authentication). */
	readonly authenticated: IHttpRequestOptions[] = [];

	constructor(private readonly credentials: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const request = incoming as IHttpRequestOptions;
		const { authenticate } = credentialType(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, request);
		if (authenticate?.type === 'generic') {
			if (!workflow || !node)
				throw new Error('Workflow and node are required for a generic credential');
			const resolve = (value: string) =>
				isExpression(value)
					? String(resolveWithCredentials(workflow, node, value, credentials) ?? '')
					: value;
			for (const [target, entries] of Object.entries(authenticate.properties)) {
				const bag = ((request as unknown as Record<string, Record<string, unknown>>)[target] ??=
					{});
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					bag[resolve(key)] = resolve(value);
				}
			}
		}
		this.authenticated.push(request);
		return request;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.credentials[type];
		if (!data) throw new Error(`No test credentials of type "${type}"`);
		const withDefaults: ICredentialDataDecryptedObject = {};
		for (const property of credentialType(type).properties) {
			if (property.default !== undefined && property.type !== 'notice') {
				withDefaults[property.name] = property.default as ICredentialDataDecryptedObject[string];
			}
		}
		return { ...withDefaults, ...data };
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		return {
			id: nodeCredentials.id,
			name: nodeCredentials.name,
			type,
			data: undefined,
		} as unknown as ICredentials;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialType(type).properties;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		_node: INode,
		_credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}
}
