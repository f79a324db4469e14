/**
 * The decisions of the webhook lifecycle, without HTTP: what an activation registers and gives
 * back (or refuses) per assistant, where checkExists finds each assistant's calls, and which
 * assistants a removal gives back. The world (HookWorld) is built by hand; a probe is the one
 * request a decision may make, answered here by a stub.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { planRegistration } from '../../../nodes/VoiceChatAssistantTrigger/calls/lifecycle';
import {
	planRemoval,
	sealTargets,
	whereCallsGo,
} from '../../../nodes/VoiceChatAssistantTrigger/calls/ownership';
import type { AssistantWebhookState } from '../../../nodes/VoiceChatAssistantTrigger/calls/ownership';
import type {
	Registration,
	Wanted,
	WebhookTarget,
} from '../../../nodes/VoiceChatAssistantTrigger/calls/registration';
import type { HookWorld } from '../../../nodes/VoiceChatAssistantTrigger/calls/world';

const AUTHORIZATION = 'Bearer plan-test-key';
const N8N = 'https://n8n.example.com/webhook/hook-id/webhook';
const OTHER_TRIGGER = `https://n8n.example.com/webhook/other-id/webhook?assistant_id=12&secret=${'B'.repeat(32)}`;
const CRM = 'https://crm.example.com/hook?token=crm';

function world(
	overrides: Partial<HookWorld> = {},
	answer?: (url: string) => unknown,
): HookWorld & { probed: string[]; logged: string[] } {
	const probed: string[] = [];
	const logged: string[] = [];
	const log = (message: string) => logged.push(message);
	return {
		node: { id: 'n', name: 'Trigger', type: 't', typeVersion: 1, position: [0, 0], parameters: {} },
		key: 'wf|hook-id',
		staticData: {},
		registration: undefined,
		secretVersion: 1,
		secretOf: (_event, id) => `${String(id).padStart(2, '0')}${'A'.repeat(30)}`,
		secretToRegister: (_event, id) => `${String(id).padStart(2, '0')}${'A'.repeat(30)}`,
		serviceBaseUrl: async () => 'https://api.example.com',
		authorization: AUTHORIZATION,
		bases: ['https://n8n.example.com/webhook', 'https://n8n.example.com/webhook-test'],
		httpRequest: (async (options: IHttpRequestOptions) => {
			probed.push(String(options.url));
			return { statusCode: 200, headers: {}, body: answer?.(String(options.url)) ?? {} };
		}) as HookWorld['httpRequest'],
		logger: { debug: log, info: log, warn: log, error: log } as unknown as HookWorld['logger'],
		probed,
		logged,
		...overrides,
	};
}

const wanted = (policy: Wanted['policy'], assistantIds = [12]): Wanted => ({
	event: 'inboundCallCompleted',
	webhookUrl: N8N,
	assistantIds,
	policy,
	secretVersion: 1,
});
const posting = (url: string | null, active = url !== null): AssistantWebhookState => ({
	found: true,
	readable: true,
	target: { url, active },
});
const states = (entries: Array<[number, AssistantWebhookState]>) => new Map(entries);
const ownUrl = (id: number) =>
	`${N8N}?assistant_id=${id}&secret=${String(id).padStart(2, '0')}${'A'.repeat(30)}`;

describe('Voice Chat Assistant Trigger: the lifecycle decides before it writes', () => {
	describe('an activation', () => {
		it('registers each assistant at its URL with the derived secret, and keeps a foreign URL to give back', async () => {
			const w = world();
			const plan = await planRegistration(
				w,
				wanted('takeOverAndGiveBack', [12, 34]),
				states([
					[12, posting(CRM)],
					[34, posting(null)],
				]),
			);
			expect(plan).toEqual([
				{
					id: 12,
					url: ownUrl(12),
					secret: `12${'A'.repeat(30)}`,
					giveBack: [{ url: CRM, active: true }],
				},
				{
					id: 34,
					url: ownUrl(34),
					secret: `34${'A'.repeat(30)}`,
					giveBack: [{ url: null, active: false }],
				},
			]);
			expect(w.probed).toEqual([]);
		});

		it('"Take Over" keeps nothing to give back', async () => {
			const plan = await planRegistration(
				world(),
				wanted('takeOver'),
				states([[12, posting(CRM)]]),
			);
			expect(plan.map((p) => p.giveBack)).toEqual([[]]);
		});

		it('"Fail Activation" refuses an assistant that posts elsewhere, naming its host, with no request', async () => {
			const w = world();
			await expect(
				planRegistration(
					w,
					wanted('fail', [34, 12]),
					states([
						[34, posting(null)],
						[12, posting(CRM)],
					]),
				),
			).rejects.toThrow('Assistant 12 already sends its calls to crm.example.com');
			expect(w.probed).toEqual([]);
		});

		it('refuses an assistant the list does not show', async () => {
			await expect(
				planRegistration(
					world(),
					wanted('takeOverAndGiveBack', [99]),
					states([[99, { found: false, readable: false, target: { url: null, active: false } }]]),
				),
			).rejects.toThrow('Assistant 99 not found');
		});

		it("keeps its own earlier registration's give-back list when the assistant still posts here", async () => {
			const earlier: WebhookTarget[] = [{ url: CRM, active: true }];
			const registration: Registration = {
				event: 'inboundCallCompleted',
				webhookUrl: N8N,
				assistants: [{ id: 12, url: ownUrl(12), secret: `12${'A'.repeat(30)}`, giveBack: earlier }],
			};
			const plan = await planRegistration(
				world({ registration }),
				wanted('takeOverAndGiveBack'),
				states([[12, posting(ownUrl(12))]]),
			);
			expect(plan[0].giveBack).toEqual(earlier);
		});

		it('asks another live trigger of this n8n and keeps what it would give back after it', async () => {
			const w = world({}, () => ({
				voiceChatAssistantTrigger: 'live',
				sealedGiveBack: sealTargets([{ url: CRM, active: true }], AUTHORIZATION, 12),
			}));
			const plan = await planRegistration(
				w,
				wanted('takeOverAndGiveBack'),
				states([[12, posting(OTHER_TRIGGER)]]),
			);
			expect(w.probed).toEqual([OTHER_TRIGGER]);
			expect(plan[0].giveBack).toEqual([
				{ url: OTHER_TRIGGER, active: true },
				{ url: CRM, active: true },
			]);
		});
	});

	describe('checkExists and removal', () => {
		const registration: Registration = {
			event: 'inboundCallCompleted',
			webhookUrl: N8N,
			assistants: [12, 34, 56, 78].map((id) => ({
				id,
				// 56 was saved with an older secret: the assistant holds the URL this node derives now
				url: id === 56 ? `${N8N}?assistant_id=56&secret=${'C'.repeat(32)}` : ownUrl(id),
				secret: id === 56 ? 'C'.repeat(32) : `${id}${'A'.repeat(30)}`,
				giveBack: [],
			})),
		};
		const service = states([
			[12, posting(ownUrl(12))],
			[34, posting(CRM)],
			[56, posting(ownUrl(56))],
			[78, { found: false, readable: false, target: { url: null, active: false } }],
		]);

		it('checkExists: here, elsewhere (lost), gone, or another trigger of this n8n to ask', () => {
			const w = world();
			const where = (id: number, state = service.get(id)!) =>
				whereCallsGo(
					w,
					wanted('takeOverAndGiveBack'),
					registration,
					registration.assistants.find((a) => a.id === id)!,
					state,
				);
			expect([where(12), where(34), where(56), where(78)]).toEqual([
				'here',
				'lost',
				'here',
				'gone',
			]);
			expect(where(34, posting(OTHER_TRIGGER))).toEqual({ ask: OTHER_TRIGGER });
			expect(
				where(34, { found: true, readable: false, target: { url: null, active: false } }),
			).toBe('here');
			expect(w.probed).toEqual([]);
		});

		it('removal gives back only the assistants that still post here, and says why it leaves the others', () => {
			const w = world();
			expect(planRemoval(w, registration, service).map((a) => a.id)).toEqual([12, 56]);
			expect(w.logged).toEqual([
				'Voice Chat Assistant Trigger: assistant 34 sends its calls to crm.example.com by now; left as it is',
				'Voice Chat Assistant Trigger: assistant 78 no longer exists; nothing to remove',
			]);
			expect(w.probed).toEqual([]);
		});
	});
});
