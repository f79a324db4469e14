/**
 * The catch-up state through the trigger's lifecycle: kept at removal, carried
 * over by a publish, a failed start and n8n's start, started at now by the
 * user's activation; the service's zone learned from the delivered call.
 */
import type { IDataObject } from 'n8n-workflow';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';

import { startCatchUp } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpState';
import { trigger } from '../../helpers/registeredTrigger';
import { DOWN_AT, MINUTE, NOW, listCall } from './catchUpFixtures';
import { PAYLOAD, caughtUpItem, deliver, registered, useCatchUpList } from './catchUpHarness';

const { listed } = useCatchUpList();

describe('Voice Chat Assistant Trigger: catch-up state and the lifecycle', () => {
	it('removal keeps the catch-up state, marked removed (a publish and a failed start add the trigger back)', async () => {
		const ctx = registered.hookContext({
			staticData: { catchUp: { assistants: { '34': { at: DOWN_AT, recent: [] } } } },
		});
		await expect(trigger.webhookMethods.default.delete.call(ctx.context)).resolves.toBe(true);
		expect(ctx.sent).toEqual([]);
		expect(ctx.staticData).toEqual({
			catchUp: { assistants: { '34': { at: DOWN_AT, recent: [] } }, removedAt: NOW },
		});
	});

	const SAVED = {
		catchUp: {
			zone: 60,
			assistants: {
				'34': { at: DOWN_AT, recent: [[9001, DOWN_AT]] },
				'56': { at: DOWN_AT, recent: [] },
			},
		},
	};

	it.each(['update', 'init', 'leadershipChange'] as const)(
		'registration at %s keeps the watermark of each watched assistant, starts the new ones at now, and drops the others',
		(activationMode) => {
			const ctx = registered.hookContext({
				activationMode,
				staticData: JSON.parse(JSON.stringify(SAVED)) as IDataObject,
			});
			startCatchUp(ctx.context, [12, 34]);
			expect(ctx.staticData.catchUp).toEqual({
				zone: 60,
				assistants: {
					'12': { at: NOW, recent: [] },
					'34': { at: DOWN_AT, recent: [[9001, DOWN_AT]] },
				},
			});
		},
	);

	it("an activation by the user starts every watermark at now: calls of the inactive time are not the workflow's", () => {
		const ctx = registered.hookContext({
			activationMode: 'activate',
			staticData: JSON.parse(JSON.stringify(SAVED)) as IDataObject,
		});
		startCatchUp(ctx.context, [12, 34]);
		expect(ctx.staticData.catchUp).toEqual({
			zone: 60,
			assistants: { '12': { at: NOW, recent: [] }, '34': { at: NOW, recent: [] } },
		});
		const test = registered.hookContext({ mode: 'manual' });
		startCatchUp(test.context, [12]);
		expect(test.staticData).toEqual({});
	});

	it('a publish (removal, then registration at update) and a failed start (removal, then init) keep the watermark; a removal before a restart does not', async () => {
		for (const activationMode of ['update', 'init'] as const) {
			forgetProcess();
			const data = JSON.parse(JSON.stringify(SAVED)) as IDataObject;
			const removal = registered.hookContext({ staticData: data });
			await trigger.webhookMethods.default.delete.call(removal.context);
			startCatchUp(registered.hookContext({ activationMode, staticData: data }).context, [34]);
			expect(data.catchUp).toEqual({
				zone: 60,
				assistants: { '34': { at: DOWN_AT, recent: [[9001, DOWN_AT]] } },
			});
		}
		// deactivated, n8n restarted, the workflow active again at n8n's start (init)
		const data = JSON.parse(JSON.stringify(SAVED)) as IDataObject;
		await trigger.webhookMethods.default.delete.call(
			registered.hookContext({ staticData: data }).context,
		);
		forgetProcess();
		startCatchUp(registered.hookContext({ activationMode: 'init', staticData: data }).context, [
			34,
		]);
		expect(data.catchUp).toEqual({ zone: 60, assistants: { '34': { at: NOW, recent: [] } } });
	});

	it('without a zone in the delivered call its start is taken as now minus its duration', async () => {
		// the payload's times name no zone: the list's zone (one hour ahead) is learned from the duration
		const body = {
			...PAYLOAD,
			created_at: '2026-11-26 12:58:00',
			finished_at: '2026-11-26 12:59:13',
		};
		const missed = listCall(9001, DOWN_AT + MINUTE);
		listed([missed]);
		const { items, staticData: data } = await deliver({ body });
		expect(items[0]).toEqual(caughtUpItem(missed, DOWN_AT + MINUTE));
		expect((data.catchUp as IDataObject).zone).toBe(60);
	});
});
