/** The helpers that write recurring fields of the editor: what they produce is what the editor shows. */
import {
	decimalRangeField,
	numericIdLocator,
	optionsOfValues,
} from '../../../nodes/VoiceChatAssistant/descriptions';

describe('the field helpers', () => {
	it('label options by their value, each word with a capital, in the order given', () => {
		expect(optionsOfValues(['string', 'crowded_room', 'bool'])).toEqual([
			{ name: 'String', value: 'string' },
			{ name: 'Crowded Room', value: 'crowded_room' },
			{ name: 'Bool', value: 'bool' },
		]);
	});

	it('give a number range with two decimals, its range and default in the description', () => {
		expect(decimalRangeField('Speech Speed', 'speech_speed', 0.7, 1.2, 1)).toEqual({
			displayName: 'Speech Speed',
			name: 'speech_speed',
			type: 'number',
			typeOptions: { minValue: 0.7, maxValue: 1.2, numberPrecision: 2 },
			default: 1,
			description: '0.7-1.2, default 1',
		});
	});

	it('word the description of a numeric-ID locator', () => {
		const locator = numericIdLocator('Campaign', 'campaignId', 'searchCampaigns', 'The campaign');
		expect(locator).toMatchObject({
			displayName: 'Campaign',
			name: 'campaignId',
			type: 'resourceLocator',
			description: 'The campaign. Pick it from the list or give its numeric ID.',
		});
		expect(locator.modes?.[0].typeOptions?.searchListMethod).toBe('searchCampaigns');
	});
});
