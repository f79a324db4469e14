import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { KEY_MAY_GO_EXPRESSION } from '../nodes/VoiceChatAssistant/transport/baseUrlRule';

/**
 * Whether the key may go to the Base URL, as an expression (n8n's
 * expressions: no braces in it): https://, or plain http:// to localhost,
 * 127.x.x.x or [::1] only. The nodes' transport applies the same rule
 * (nodes/VoiceChatAssistant/transport/baseUrlRule.ts).
 */
const SECURE_BASE_URL = KEY_MAY_GO_EXPRESSION;

export class VoiceChatAssistantApi implements ICredentialType {
	name = 'voiceChatAssistantApi';

	displayName = 'Voice Chat Assistant API';

	icon: Icon = {
		light: 'file:../icons/voiceChatAssistant.svg',
		dark: 'file:../icons/voiceChatAssistant.dark.svg',
	};

	documentationUrl =
		'https://github.com/voice-chat-assistant/n8n-nodes-voice-chat-assistant#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The API key of your account. Create one in the web app under Settings → API Keys.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://app.famulor.de',
			required: true,
			description:
				'Address of the service, starting with https:// (plain http:// only for a test server on this machine: http://localhost, http://127.0.0.1 or http://[::1], with an optional port; the key never crosses a network unencrypted). Change it only for a white-label deployment or a test server. A trailing slash or a trailing "/api" is ignored.',
		},
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description:
				"How many requests the node sends per minute with this credential, across all workflows of this n8n process. Raise it only if your plan allows more. In queue mode keep the account's limit: each worker adapts its share to the 429 answers it meets.",
		},
		{
			displayName: 'Burst',
			name: 'burst',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 20,
			description:
				'How many requests may be sent within any 10 seconds with this credential. Raise it only if your plan allows more.',
		},
	];

	/**
	 * The key goes over https:// only, or to this machine (the same rule as the
	 * nodes' transport, credentials.ts baseUrlProblem): towards any other Base
	 * URL the header is left empty, in the credential test and in every node
	 * that uses this credential.
	 */
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: `={{ ${SECURE_BASE_URL} ? "Bearer " + $credentials.apiKey : "" }}`,
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			// the same normalisation as the transport's normalizeBaseUrl (a unit test holds them together)
			baseURL:
				'={{(String($credentials.baseUrl || "").trim() || "https://app.famulor.de").replace(/\\/+$/, "").replace(/\\/api$/i, "").replace(/\\/+$/, "")}}',
			url: '/api/user/me',
			headers: { Accept: 'application/json' },
			// a redirect would carry the key to another host: not followed, and said why
			disableFollowRedirect: true,
		},
		rules: [
			...[301, 302, 303, 307, 308].map((value) => ({
				type: 'responseCode' as const,
				properties: {
					value,
					message:
						'The Base URL answered with a redirect, which is not followed: the API key would go along to another host. Enter the address the service uses now.',
				},
			})),
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key was not accepted. The key is sent over https:// only (plain http:// only to localhost, 127.x.x.x and [::1]), so also check that the Base URL starts with https://.',
				},
			},
		],
	};
}
