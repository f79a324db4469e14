/**
 * The "Mid-Call Tool Request" event in the trigger's form: the event, its
 * Response Mode, the tool's fields and what they say.
 */
import { trigger } from '../../helpers/registeredTrigger';
import { describeMidCallTool } from './midCallToolFixtures';

describeMidCallTool('the form', () => {
	const props = trigger.description.properties;
	const shownFor = (event: string) =>
		props.filter((p) => {
			const show = p.displayOptions?.show?.event as string[] | undefined;
			const hide = p.displayOptions?.hide?.event as string[] | undefined;
			return (!show || show.includes(event)) && !(hide && hide.includes(event));
		});

	it('offers the event in the Event picker and answers from the last node by default', () => {
		const event = props.find((p) => p.name === 'event')!;
		expect(event.options).toContainEqual(
			expect.objectContaining({
				name: 'Mid-Call Tool Request',
				value: 'midCallTool',
				action: 'On mid-call tool request',
			}),
		);
		const modes = shownFor('midCallTool').filter((p) => p.name === 'responseMode');
		expect(modes).toHaveLength(1);
		expect(modes[0].default).toBe('lastNode');
		expect(modes[0].options!.map((o) => (o as { value: string }).value)).toEqual([
			'lastNode',
			'responseNode',
		]);
		// the other events keep their one Response Mode, answering at once by default
		const others = shownFor('inboundCallCompleted').filter((p) => p.name === 'responseMode');
		expect(others.map((p) => p.default)).toEqual(['onReceived']);
	});

	it("shows the tool's fields, says that the workflow must answer within the timeout, and hides the webhook-only fields", () => {
		const names = shownFor('midCallTool').map((p) => p.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'assistantId',
				'additionalAssistants',
				'toolName',
				'toolDescription',
				'toolParameters',
				'toolTimeout',
			]),
		);
		for (const hidden of ['existingWebhook', 'verifySecret', 'options', 'oneUrlPerAssistantNotice'])
			expect(names).not.toContain(hidden);
		const notice = props.find((p) => p.name === 'midCallToolNotice')!;
		expect(String(notice.displayName)).toMatch(
			/must answer within the tool's timeout \(1 to 30 seconds\)/,
		);
		const timeout = props.find((p) => p.name === 'toolTimeout')!;
		expect([timeout.default, timeout.typeOptions?.minValue, timeout.typeOptions?.maxValue]).toEqual(
			[10, 1, 30],
		);
		for (const name of [
			'toolName',
			'toolDescription',
			'toolParameters',
			'toolTimeout',
			'midCallToolNotice',
		])
			expect(props.find((p) => p.name === name)!.displayOptions).toEqual({
				show: { event: ['midCallTool'] },
			});
	});
});
