/**
 * The pickers before a credential is chosen: the editor asks for options as
 * soon as a node is added; without a credential the node answers empty and
 * sends nothing (no "Error fetching options"), with one it asks the service.
 */
import nock from 'nock';
import type { ILoadOptionsFunctions, INode } from 'n8n-workflow';

import { VoiceChatAssistant } from '../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';
import { VoiceChatAssistantTrigger } from '../../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';
import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { pickerContext } from './pickerContext';

const BASE = 'https://guard.example.test';

/** A picker context of a node with `credentials` (none: no credential chosen) that may send nothing. */
function context(credentials: INode['credentials']): ILoadOptionsFunctions {
	const node: INode = { ...pickerContext().ctx.getNode(), credentials };
	return {
		getNode: () => node,
		getCredentials: async () => ({ apiKey: 'guard-key', baseUrl: BASE }),
		getNodeParameter: (name: string, fallback?: unknown) =>
			name === 'mode' ? 'pipeline' : fallback,
		getCurrentNodeParameter: () => undefined,
		helpers: {
			httpRequestWithAuthentication: async () => {
				throw new Error('no request may be sent');
			},
		},
	} as unknown as ILoadOptionsFunctions;
}

describe('pickers without a credential', () => {
	afterEach(() => nock.cleanAll());

	const action = new VoiceChatAssistant().methods;
	const nodes = {
		'Voice Chat Assistant': action,
		'Voice Chat Assistant Trigger': new VoiceChatAssistantTrigger().methods,
		'Voice Chat Assistant Polling Trigger': new VoiceChatAssistantPollingTrigger().methods,
	};

	it.each(Object.entries(nodes))(
		'%s: every list search answers an empty list and sends nothing',
		async (_name, methods) => {
			const scope = nock(BASE).get(/.*/).reply(500);
			const names = Object.keys(methods.listSearch ?? {});
			expect(names.length).toBeGreaterThan(0);
			for (const name of names) {
				await expect(methods.listSearch![name].call(context(undefined), '')).resolves.toEqual({
					results: [],
				});
			}
			expect(scope.isDone()).toBe(false);
		},
	);

	it('the action node: every options method answers no options, and the template mapper asks for a credential', async () => {
		const names = Object.keys(action.loadOptions);
		expect(names).toEqual(expect.arrayContaining(['getLanguages', 'getVoices', 'getModels']));
		for (const name of names) {
			await expect(action.loadOptions[name].call(context({}))).resolves.toEqual([]);
		}
		await expect(
			action.resourceMapping.getWhatsappTemplateVariables.call(context(undefined)),
		).resolves.toEqual({
			fields: [],
			emptyFieldsNotice: 'Choose a credential first.',
		});
	});

	it('with a credential chosen, the picker asks the service', async () => {
		const ctx = context({ voiceChatAssistantApi: { id: 'cred1', name: 'Simulator' } });
		let asked = 0;
		(ctx.helpers as unknown as Record<string, unknown>).httpRequestWithAuthentication =
			async () => {
				asked++;
				return [{ id: 1, name: 'German', code: 'de' }];
			};
		await action.loadOptions.getLanguages.call(ctx);
		expect(asked).toBe(1);
	});
});
