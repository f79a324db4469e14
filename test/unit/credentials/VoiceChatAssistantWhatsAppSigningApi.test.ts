/**
 * The WhatsApp signing secret's credential: one secret (a password field),
 * registered in package.json, nothing that sends it anywhere, its docs link
 * pointing at a heading that exists, and its test (the trigger's
 * `whatsappSigningSecretTest`), which checks the form of the secret only and
 * never repeats it.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type { ICredentialTestFunctions, ICredentialsDecrypted } from 'n8n-workflow';

import { VoiceChatAssistantApi } from '../../../credentials/VoiceChatAssistantApi.credentials';
import { VoiceChatAssistantWhatsAppSigningApi } from '../../../credentials/VoiceChatAssistantWhatsAppSigningApi.credentials';
import {
	SIGNING_CREDENTIAL,
	SIGNING_CREDENTIAL_NAME,
	testSigningSecret,
} from '../../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappSecret';

const ROOT = join(__dirname, '../../..');
const credential = new VoiceChatAssistantWhatsAppSigningApi();

describe('Voice Chat Assistant WhatsApp Signing API credential', () => {
	it('is the type the trigger asks for, under the name the docs use', () => {
		expect(credential.name).toBe(SIGNING_CREDENTIAL);
		expect(credential.displayName).toBe(SIGNING_CREDENTIAL_NAME);
		expect(credential.icon).toEqual(new VoiceChatAssistantApi().icon);
	});

	it('holds one secret, in a password field, and sends it nowhere', () => {
		const fields = credential.properties.filter((p) => p.type !== 'notice');
		expect(fields.map((p) => [p.name, p.type, p.typeOptions, p.required])).toEqual([
			['signingSecret', 'string', { password: true }, true],
		]);
		expect((credential as { authenticate?: unknown }).authenticate).toBeUndefined();
		expect((credential as { test?: unknown }).test).toBeUndefined();
		expect(String(credential.properties[0].displayName)).toContain(
			'One credential per WhatsApp sender',
		);
	});

	it('is registered in package.json next to the API credential', () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			n8n: { credentials: string[] };
		};
		expect(pkg.n8n.credentials).toEqual([
			'dist/credentials/VoiceChatAssistantApi.credentials.js',
			'dist/credentials/VoiceChatAssistantWhatsAppSigningApi.credentials.js',
		]);
	});

	it('links to the docs section on where the secret lives and how to rotate it', () => {
		const [file, anchor] = credential.documentationUrl.split('/blob/main/')[1].split('#');
		const headings = readFileSync(join(ROOT, file), 'utf8')
			.split('\n')
			.filter((l) => /^#+ /.test(l))
			.map((l) =>
				l
					.replace(/^#+ /, '')
					.toLowerCase()
					.replace(/[^\p{L}\p{N}\s_-]/gu, '')
					.replace(/\s/g, '-'),
			);
		expect(headings).toContain(anchor);
	});
});

describe('its test: the form of the secret, never the secret', () => {
	const SECRET = 'whsec_9fK2mQ7xL4pR8tV1';
	const run = async (signingSecret: unknown) =>
		await testSigningSecret.call(
			{} as ICredentialTestFunctions,
			{
				id: '1',
				name: 'Sender 1',
				type: SIGNING_CREDENTIAL,
				data: { signingSecret },
			} as ICredentialsDecrypted,
		);

	it.each([
		['', 'Signing Secret is empty'],
		['   ', 'Signing Secret is empty'],
		[undefined, 'Signing Secret is empty'],
		['whsec_9fK2 mQ7xL4pR8tV1', 'Signing Secret contains spaces or line breaks'],
		['whsec_9fK2\nmQ7xL4pR8tV1', 'Signing Secret contains spaces or line breaks'],
		[`sha256=${'ab'.repeat(32)}`, 'Signing Secret holds a signature (sha256=...), not the secret'],
	])('%j: an error naming the field', async (value, message) => {
		const result = await run(value);
		expect(result.status).toBe('Error');
		expect(result.message).toContain(message);
		if (typeof value === 'string' && value.trim()) expect(result.message).not.toContain(value);
	});

	it('accepts a secret (with spaces around it, which the trigger ignores) and says when it is checked', async () => {
		const result = await run(`  ${SECRET}\n`);
		expect(result).toEqual({
			status: 'OK',
			message: expect.stringContaining('checked against the first post of the sender'),
		});
		expect(result.message).not.toContain(SECRET);
	});
});
