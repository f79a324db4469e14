import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

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
				'Address of the service. Change it only for a white-label deployment or a test server. A trailing slash or a trailing "/api" is ignored.',
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

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
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
		},
	};
}
