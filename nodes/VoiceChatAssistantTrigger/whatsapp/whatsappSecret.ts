import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDisplayOptions,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Where the "WhatsApp Message Status" event finds the sender's signing secret:
 * in a credential of its own (`voiceChatAssistantWhatsAppSigningApi`), where
 * n8n keeps secrets: encrypted, out of the workflow, its executions, its
 * versions and its exports.
 *
 * Workflows made before kept the secret in a node parameter, "Signing Secret"
 * (`signingSecret`). That field is shown only while it holds a value (so it
 * can be emptied, and a new workflow never gets one), and:
 * - with no signing credential chosen, the old field is still used (so an
 *   active workflow keeps receiving after an upgrade), with a warning in n8n's
 *   log at every activation saying what to move where;
 * - with a signing credential chosen, activation fails until the old field is
 *   emptied (it would keep a copy of the secret in every saved version).
 * No message ever contains the secret.
 */

export const SIGNING_CREDENTIAL = 'voiceChatAssistantWhatsAppSigningApi';
export const SIGNING_CREDENTIAL_NAME = 'Voice Chat Assistant WhatsApp Signing API';
export const SIGNING_CREDENTIAL_TEST = 'whatsappSigningSecretTest';

/** The node parameter of earlier versions that held the secret. */
export const OLD_SECRET_PARAMETER = 'signingSecret';

const OLD_FIELD = 'Signing Secret (Old Field)';

/** What to move where (the fields named, never the secret). */
const howToMove = `Create a "${SIGNING_CREDENTIAL_NAME}" credential, paste the sender's signing secret (from the sender's webhook settings for read receipts in the service's dashboard) into its Signing Secret, choose the credential in the node, and empty ${OLD_FIELD}.`;

/** Shown only for the event and only while the old field holds something. */
const whileOldFieldSet: IDisplayOptions = {
	show: {
		event: ['whatsappMessageStatus'],
		[OLD_SECRET_PARAMETER]: [{ _cnd: { exists: true } }],
	},
};

/** The old field and its notice: visible only in workflows that still have a value there. */
export const oldSecretProperties: INodeProperties[] = [
	{
		displayName: `The signing secret now lives in a credential, where n8n keeps it encrypted and out of executions, workflow versions and exports. Create a "${SIGNING_CREDENTIAL_NAME}" credential with the sender's signing secret, choose it above, then empty ${OLD_FIELD} below (it disappears). Until a credential is chosen, this field is still used.`,
		name: 'oldSigningSecretNotice',
		type: 'notice',
		default: '',
		displayOptions: whileOldFieldSet,
	},
	{
		displayName: OLD_FIELD,
		name: OLD_SECRET_PARAMETER,
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: `Used only while no "${SIGNING_CREDENTIAL_NAME}" credential is chosen. Empty it once the credential holds the secret.`,
		displayOptions: whileOldFieldSet,
	},
];

export interface SigningSecret {
	secret: string;
	/** Where it came from: the credential, or the node's old field. */
	source: 'credential' | 'oldField';
}

type SecretContext = Pick<IHookFunctions, 'getNode' | 'getNodeParameter' | 'getCredentials'>;

/** What the old field holds, trimmed ('' when nothing). Its value is never put into a message. */
function oldFieldValue(ctx: SecretContext): string {
	let value: unknown;
	try {
		value = ctx.getNodeParameter(OLD_SECRET_PARAMETER, '');
	} catch (error) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${OLD_FIELD}: its expression could not be read (${(error as Error).message.split('\n')[0]})`,
			{ description: howToMove },
		);
	}
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

/**
 * The sender's signing secret: from the chosen credential, else from the
 * node's old field. Throws a message naming the field (never the secret) when
 * there is none, or when both are set.
 */
export async function readSigningSecret(ctx: SecretContext): Promise<SigningSecret> {
	const node = ctx.getNode();
	const chosen = node.credentials?.[SIGNING_CREDENTIAL] !== undefined;
	const old = oldFieldValue(ctx);
	if (chosen && old !== '') {
		throw new NodeOperationError(node, `${OLD_FIELD} still holds a secret: empty it`, {
			description: `The credential "${node.credentials![SIGNING_CREDENTIAL].name}" holds the signing secret now. The old field of the node keeps a copy of the secret in every execution, workflow version and export: empty ${OLD_FIELD} (it disappears), save, and activate again.`,
		});
	}
	if (!chosen) {
		if (old !== '') return { secret: old, source: 'oldField' };
		throw new NodeOperationError(node, `No "${SIGNING_CREDENTIAL_NAME}" credential chosen`, {
			description: `Every post of the sender is checked against its signing secret. Create a "${SIGNING_CREDENTIAL_NAME}" credential (one per sender), paste the sender's signing secret from its webhook settings for read receipts in the service's dashboard, and choose it in the node.`,
		});
	}
	let data: Record<string, unknown>;
	try {
		data = (await ctx.getCredentials(SIGNING_CREDENTIAL)) as Record<string, unknown>;
	} catch (error) {
		throw new NodeOperationError(
			node,
			`The "${SIGNING_CREDENTIAL_NAME}" credential could not be read: ${(error as Error).message.split('\n')[0]}`,
			{ description: 'Choose the credential again in the node, or create it anew.' },
		);
	}
	const secret = typeof data?.signingSecret === 'string' ? data.signingSecret.trim() : '';
	if (secret === '') {
		throw new NodeOperationError(
			node,
			`Signing Secret of the credential "${node.credentials![SIGNING_CREDENTIAL].name}" is empty`,
			{
				description:
					"Open the credential and paste the sender's signing secret from its webhook settings for read receipts in the service's dashboard.",
			},
		);
	}
	return { secret, source: 'credential' };
}

/** The warning of an activation that still reads the old field (no secret in it). */
export const OLD_FIELD_WARNING = `the signing secret is still read from the node's ${OLD_FIELD}, which n8n copies into every execution, workflow version and export. ${howToMove}`;

/**
 * The credential's test: the secret is never sent anywhere and the service
 * has no request to check it, so this checks its form only. A wrong secret
 * shows at the first post: answered 401, with a warning in n8n's log.
 */
export async function testSigningSecret(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const value = credential.data?.signingSecret;
	const secret = typeof value === 'string' ? value.trim() : '';
	if (secret === '') return { status: 'Error', message: 'Signing Secret is empty' };
	if (/\s/.test(secret)) {
		return {
			status: 'Error',
			message:
				"Signing Secret contains spaces or line breaks: copy it again from the sender's webhook settings",
		};
	}
	if (/^sha256=[0-9a-f]{64}$/i.test(secret)) {
		return {
			status: 'Error',
			message:
				"Signing Secret holds a signature (sha256=...), not the secret: copy the secret from the sender's webhook settings",
		};
	}
	return {
		status: 'OK',
		message:
			'The secret has a usable form. It is checked against the first post of the sender (a wrong one is answered 401 and logged).',
	};
}
