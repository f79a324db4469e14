import { description as createDescription } from '../../../../nodes/VoiceChatAssistant/actions/assistant/create.operation';
import { description as updateDescription } from '../../../../nodes/VoiceChatAssistant/actions/assistant/update.operation';
import { LABELS } from '../../../../nodes/VoiceChatAssistant/actions/assistant/fields';

/** fields/: real labels, grouped in the editor by a prefix, sorted as n8n lists a collection. */
describe('Assistant fields', () => {
	const optionsOf = (properties: typeof createDescription, name: string) =>
		(properties.find((p) => p.name === name)?.options ?? []) as Array<{
			displayName: string;
			name: string;
		}>;

	it.each([
		['Create → Additional Fields', () => optionsOf(createDescription, 'additionalFields')],
		['Update → Update Fields', () => optionsOf(updateDescription, 'updateFields')],
	])('%s are labelled "Group: Label", grouped and sorted', (_what, options) => {
		const labels = options().map((o) => o.displayName);
		expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
		const groups = labels.map((l) => l.split(': ')[0]);
		// each group's fields stand together
		expect(groups.filter((g, i) => i === 0 || g !== groups[i - 1])).toEqual([...new Set(groups)]);
		expect(labels).toEqual(
			expect.arrayContaining([
				'Call Flow: LLM Temperature',
				'Voice: TTS Emotion',
				'Webhook: URL',
				'Voicemail: Message',
				'Voice: Stability',
				'Webhook: Include Recording',
			]),
		);
		expect(labels.some((l) => /\bLlm\b|\bTts\b|\bUrl\b/.test(l))).toBe(false);
		// no label repeats its group ("Voice: Voice Stability")
		expect(
			labels.filter((l) => {
				const [group, rest] = l.split(': ');
				return rest.startsWith(`${group} `);
			}),
		).toEqual([]);
	});

	it('messages use the label without its group', () => {
		expect(LABELS).toMatchObject({
			llm_temperature: 'LLM Temperature',
			webhook_url: 'Webhook URL',
			tool_ids: 'Mid Call Tools',
			voice_mail_message: 'Voicemail Message',
		});
	});
});
