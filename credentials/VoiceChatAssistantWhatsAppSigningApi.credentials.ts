import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The signing secret of one WhatsApp sender: the key of the HMAC-SHA256 the
 * service signs each read receipt with (`X-Signature-256`). The Voice Chat
 * Assistant Trigger's "WhatsApp Message Status" event checks every post with
 * it. The secret is never sent anywhere: no request carries it, so the
 * credential has no `authenticate`, and its test (the trigger's
 * `whatsappSigningSecretTest`) only checks its form.
 *
 * One credential per sender: each sender has its own secret and its own
 * webhook URL in the dashboard, so one credential (and one trigger) per sender
 * keeps a leaked or rotated secret to that sender.
 */
export class VoiceChatAssistantWhatsAppSigningApi implements ICredentialType {
	name = 'voiceChatAssistantWhatsAppSigningApi';

	displayName = 'Voice Chat Assistant WhatsApp Signing API';

	icon: Icon = {
		light: 'file:../icons/voiceChatAssistant.svg',
		dark: 'file:../icons/voiceChatAssistant.dark.svg',
	};

	documentationUrl =
		'https://github.com/voice-chat-assistant/n8n-nodes-voice-chat-assistant/blob/main/docs/triggers/whatsapp-message-status.md#the-signing-secret-where-it-lives-and-how-to-rotate-it';

	properties: INodeProperties[] = [
		{
			displayName:
				"One credential per WhatsApp sender. The secret only checks the posts of the sender's read-receipts webhook; it is never sent anywhere.",
			name: 'perSenderNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The sender's signing secret, from its webhook settings (read receipts) in the service's dashboard. Spaces or line breaks around it are ignored.",
		},
	];
}
