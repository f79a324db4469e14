/**
 * Where the "WhatsApp Message Status" event finds the sender's signing secret:
 * in the node's "Voice Chat Assistant WhatsApp Signing API" credential. A
 * post signed with that secret starts the workflow, one signed with another is
 * refused, no credential fails activation naming what to create and choose. A
 * workflow that still has the old node field keeps working with a warning
 * until a credential is chosen; with both, activation asks to empty the old
 * field. The secret never appears in an item, an answer, an error or a log.
 */
import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';
import { NodeHelpers } from 'n8n-workflow';

import {
	OLD_SECRET_PARAMETER,
	SIGNING_CREDENTIAL,
	SIGNING_CREDENTIAL_NAME,
	SIGNING_CREDENTIAL_TEST,
} from '../../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappSecret';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { trigger, triggerMethods as methods } from '../../helpers/registeredTrigger';
import {
	EVENT,
	NOW,
	activation,
	SECRET,
	post,
	receipt,
	sign,
	signingCredential,
	warnings,
} from './whatsappPost';

const OLD_SECRET = 'whsec_old_field_7Qm3Zp';
const CREDENTIAL_LABEL = `Test ${SIGNING_CREDENTIAL}`;

fakeClockPerTest(NOW);
beforeEach(() => forgetProcess());

/** Everything a post or an activation left for people to read. */
const said = (...parts: unknown[]) => JSON.stringify(parts);

describe('WhatsApp Message Status: the secret from the credential', () => {
	it("starts the workflow for a post signed with the credential's secret; nothing of it in the item or the answer", async () => {
		const { response, items, logs } = await post(receipt());
		expect(response.statusCode).toBe(200);
		expect(items).toEqual([{ ...receipt(), test: false }]);
		expect(said(items, response.body, logs)).not.toContain(SECRET);
	});

	it('reads the secret from the credential, not from anywhere else: a post signed with another secret is refused', async () => {
		const raw = Buffer.from(JSON.stringify(receipt()));
		const other = 'whsec_another_sender_1234';
		const forged = await post(receipt(), { raw, signature: sign(raw, other) });
		expect(forged.response.statusCode).toBe(401);
		expect(forged.result.workflowData).toBeUndefined();
		// the same post is accepted once the credential holds that other secret
		const accepted = await post(receipt(), {
			raw,
			signature: sign(raw, other),
			credentials: signingCredential(other),
		});
		expect(accepted.response.statusCode).toBe(200);
		expect(accepted.items).toHaveLength(1);
	});

	it('refuses a forged post with 401 and a warning that names the credential, never the secret', async () => {
		const raw = Buffer.from(JSON.stringify(receipt()));
		const { response, logs } = await post(receipt(), { raw, signature: sign(raw, 'guessed') });
		expect(response.body).toEqual({ message: 'Unauthorized' });
		expect(warnings(logs)).toEqual([
			expect.stringContaining(
				`its signature is wrong; check that the node's "${SIGNING_CREDENTIAL_NAME}" credential holds this sender's signing secret`,
			),
		]);
		expect(said(logs, response.body)).not.toContain(SECRET);
	});

	it('ignores spaces and line breaks around the secret in the credential (a copy-paste)', async () => {
		const { response, items } = await post(receipt(), {
			credentials: signingCredential(`  ${SECRET}\n`),
		});
		expect(response.statusCode).toBe(200);
		expect(items).toHaveLength(1);
	});

	it('activates with the credential: no request, no warning', async () => {
		const hook = activation({}, signingCredential());
		expect(await methods.create.call(hook.context)).toBe(true);
		expect(hook.sent).toEqual([]);
		expect(warnings(hook.logs)).toEqual([]);
	});
});

describe('WhatsApp Message Status: no usable credential', () => {
	it('refuses to activate without the credential, saying what to create and choose', async () => {
		const hook = activation({}, {});
		const error = await methods.create.call(hook.context).catch((e: Error) => e);
		expect((error as Error).message).toBe(`No "${SIGNING_CREDENTIAL_NAME}" credential chosen`);
		expect((error as { description?: string }).description).toContain(
			"paste the sender's signing secret from its webhook settings for read receipts",
		);
	});

	it('answers a post 500 (the service retries it) while no credential is chosen, and starts nothing', async () => {
		const { response, result, logs } = await post(receipt(), { credentials: {} });
		expect(response.statusCode).toBe(500);
		expect(response.body).toEqual({
			message: `The workflow is not set up: No "${SIGNING_CREDENTIAL_NAME}" credential chosen`,
		});
		expect(result.workflowData).toBeUndefined();
		expect(warnings(logs)).toEqual([expect.stringContaining('because the node is not set up')]);
	});

	it('refuses to activate when the chosen credential holds no secret, naming the credential', async () => {
		const hook = activation({}, signingCredential('   '));
		await expect(methods.create.call(hook.context)).rejects.toThrow(
			`Signing Secret of the credential "${CREDENTIAL_LABEL}" is empty`,
		);
	});

	it('says so when n8n cannot hand out the chosen credential (deleted, not shared)', async () => {
		const hook = activation({}, signingCredential());
		hook.context.getCredentials = async () => {
			throw new Error('Credential with ID "cred-2" does not exist for type "x".');
		};
		await expect(methods.create.call(hook.context)).rejects.toThrow(
			`The "${SIGNING_CREDENTIAL_NAME}" credential could not be read: Credential with ID "cred-2" does not exist`,
		);
	});
});

describe('WhatsApp Message Status: workflows with the old "Signing Secret" node field', () => {
	const oldField = { [OLD_SECRET_PARAMETER]: OLD_SECRET };

	it("keep receiving while no credential is chosen: a post signed with the old field's secret starts the workflow", async () => {
		const { response, items, logs } = await post(receipt(), {
			parameters: oldField,
			credentials: {},
			signature: sign(Buffer.from(JSON.stringify(receipt())), OLD_SECRET),
		});
		expect(response.statusCode).toBe(200);
		expect(items).toHaveLength(1);
		expect(said(items, response.body, logs)).not.toContain(OLD_SECRET);
		// and one signed with anything else is still refused
		const forged = await post(receipt({ status: 'delivered' }), {
			parameters: oldField,
			credentials: {},
		});
		expect(forged.response.statusCode).toBe(401);
	});

	it('activate with a warning that says what to move where, without the secret', async () => {
		const hook = activation(oldField, {});
		expect(await methods.create.call(hook.context)).toBe(true);
		const [warning, ...more] = warnings(hook.logs);
		expect(more).toEqual([]);
		expect(warning).toContain("still read from the node's Signing Secret (Old Field)");
		expect(warning).toContain(`Create a "${SIGNING_CREDENTIAL_NAME}" credential`);
		expect(warning).toContain('empty Signing Secret (Old Field)');
		expect(warning).not.toContain(OLD_SECRET);
	});

	it('refuse to activate once a credential is chosen while the old field still holds a secret', async () => {
		const hook = activation(oldField, signingCredential());
		const error = (await methods.create.call(hook.context).catch((e: Error) => e)) as Error & {
			description?: string;
		};
		expect(error.message).toBe('Signing Secret (Old Field) still holds a secret: empty it');
		expect(error.description).toContain(`The credential "${CREDENTIAL_LABEL}" holds`);
		expect(said(error.message, error.description, hook.logs)).not.toContain(OLD_SECRET);
		expect(said(error.message, error.description)).not.toContain(SECRET);
		// a post meanwhile is answered 500 (retried by the service), not checked with either secret
		const { response } = await post(receipt(), { parameters: oldField });
		expect(response.statusCode).toBe(500);
	});
});

describe('WhatsApp Message Status: the form', () => {
	const description = trigger.description as INodeTypeDescription;
	const property = (name: string) => description.properties.find((p) => p.name === name)!;
	/** The parameters n8n keeps of a node (defaults added, hidden ones dropped), as when it loads a workflow. */
	const kept = (values: INodeParameters) =>
		NodeHelpers.getNodeParameters(description.properties, values, true, false, null, description)!;

	it('asks for the signing credential for this event only; the API credential stays as it was', () => {
		expect(description.credentials).toEqual([
			{ name: 'voiceChatAssistantApi', required: true },
			{
				name: SIGNING_CREDENTIAL,
				required: true,
				displayOptions: { show: { event: [EVENT] } },
				testedBy: SIGNING_CREDENTIAL_TEST,
			},
		]);
		const signing = description.credentials![1];
		const shown = (event: string) =>
			NodeHelpers.displayParameter({ event }, signing, null, description);
		expect(shown(EVENT)).toBe(true);
		for (const other of ['inboundCallCompleted', 'callCompleted', 'midCallTool']) {
			expect(shown(other)).toBe(false);
		}
		expect(typeof trigger.methods.credentialTest[SIGNING_CREDENTIAL_TEST]).toBe('function');
	});

	it('has no secret field in a new node: the old field is shown (and kept) only while it holds a value', () => {
		const fresh = kept({ event: EVENT });
		expect(fresh).not.toHaveProperty(OLD_SECRET_PARAMETER);
		const visible = description.properties.filter((p) =>
			NodeHelpers.displayParameter(fresh, p, null, description),
		);
		expect(visible.filter((p) => p.typeOptions?.password)).toEqual([]);

		const old = kept({ event: EVENT, [OLD_SECRET_PARAMETER]: OLD_SECRET });
		expect(old[OLD_SECRET_PARAMETER]).toBe(OLD_SECRET);
		for (const name of [OLD_SECRET_PARAMETER, 'oldSigningSecretNotice']) {
			expect(NodeHelpers.displayParameter(old, property(name), null, description)).toBe(true);
		}
		expect(property(OLD_SECRET_PARAMETER).typeOptions).toEqual({ password: true });
		expect(property(OLD_SECRET_PARAMETER).required).toBeUndefined();
		// emptied, it is gone from what n8n saves
		expect(kept({ event: EVENT, [OLD_SECRET_PARAMETER]: '' })).not.toHaveProperty(
			OLD_SECRET_PARAMETER,
		);
		expect(
			kept({ event: 'inboundCallCompleted', [OLD_SECRET_PARAMETER]: OLD_SECRET }),
		).not.toHaveProperty(OLD_SECRET_PARAMETER);
	});

	it("tells where the secret goes in the event's notice", () => {
		expect(String(property('whatsappStatusNotice').displayName)).toContain(
			`"${SIGNING_CREDENTIAL_NAME}" credential (one per sender)`,
		);
	});
});
