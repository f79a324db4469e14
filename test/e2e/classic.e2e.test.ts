/**
 * The rest of the classic API in a real n8n: one workflow that touches every
 * resource added beside the API contract's (SMS, WhatsApp, AI replies, campaigns,
 * leads, phone numbers, SIP trunks, folders and labels) and the valid inputs
 * that used to be refused (time zones, fillers off in multimodal mode).
 */
const {
	outputOf,
	SIM_KEY,
	UNTHROTTLED,
	startSimulatorAndHome,
	packageChain: chain,
	rl,
} = require('../harness/n8n');

describe('real n8n: the whole classic API', () => {
	let sim: any;
	let home: any;
	let server: any;
	beforeAll(async () => {
		({ sim, home } = await startSimulatorAndHome({ credentialData: UNTHROTTLED }));
		// one n8n for the file: each workflow is saved and run in it as from the editor
		server = await home.start();
	}, 180_000);
	afterAll(async () => {
		await sim?.close();
		await home?.cleanup();
	});

	it('one workflow touches every new resource, and the service receives what it should', async () => {
		const search = await fetch(`${sim.url}/api/user/phone-numbers/search?country_code=US`, {
			headers: { authorization: `Bearer ${SIM_KEY}` },
		});
		const available = ((await search.json()) as any).data[0].phone_number;
		const steps: Array<[string, Record<string, unknown>]> = [
			[
				'Folder',
				{
					resource: 'folder',
					operation: 'create',
					name: 'E2E folder',
					options: { color: 'green' },
				},
			],
			['Label', { resource: 'label', operation: 'create', name: 'E2E label', options: {} }],
			[
				'File Assistant',
				{
					resource: 'assistant',
					operation: 'update',
					assistantId: rl(2),
					mode: 'keep',
					updateFields: {
						folder_id: '={{ $("Folder").item.json.id }}',
						label_ids: '={{ [$("Label").item.json.id] }}',
						timezone: 'Asia/Kolkata',
					},
				},
			],
			[
				'Campaign',
				{
					resource: 'campaign',
					operation: 'create',
					name: 'E2E campaign',
					assistantId: rl(2),
					additionalFields: { timezone: 'America/Nuuk' },
				},
			],
			[
				'Lead',
				{
					resource: 'lead',
					operation: 'create',
					campaignId:
						'={{ { __rl: true, mode: "id", value: String($("Campaign").item.json.id) } }}',
					phoneNumber: '+4915100000888',
				},
			],
			[
				'Leads',
				{
					resource: 'lead',
					operation: 'getMany',
					returnAll: true,
					filters: { campaign_id: '={{ $("Campaign").item.json.id }}' },
				},
			],
			[
				'Start Campaign',
				{
					resource: 'campaign',
					operation: 'start',
					campaignId:
						'={{ { __rl: true, mode: "id", value: String($("Campaign").item.json.id) } }}',
				},
			],
			[
				'SMS',
				{
					resource: 'sms',
					operation: 'send',
					fromNumberId: rl(1),
					to: '+4915112345678',
					body: 'Thanks for your call!',
				},
			],
			[
				'WhatsApp',
				{
					resource: 'whatsapp',
					operation: 'sendFreeform',
					senderId: rl(1),
					recipientPhone: '+4915112345678',
					message: 'Your parcel arrives today.',
				},
			],
			[
				'AI Reply',
				{
					resource: 'conversation',
					operation: 'generateAiReply',
					assistantId: rl(1),
					customerIdentifier: 'e2e-customer',
					message: 'Are you open?',
				},
			],
			['Buy Number', { resource: 'phoneNumber', operation: 'purchase', phoneNumber: available }],
			[
				'SIP Trunk',
				{
					resource: 'sipTrunk',
					operation: 'create',
					sip_trunk_type: 'extension',
					phone_number: '201',
					sip_username: 'e2e-pbx',
					sip_password: 'e2e-secret',
					sip_address: 'pbx.example.net',
					sip_calling_format: '+e164',
					inbound_authorization_type: 'auth',
					country_code: 'DE',
					additionalFields: {},
				},
			],
			['Labels', { resource: 'label', operation: 'getMany', returnAll: true }],
		];
		const id = await home.createWorkflow(server, chain('e2eClassicWf0001', steps));
		const result = await home.run(server, id);
		expect({ ok: result.ok, stderr: result.ok ? '' : String(result.raw).slice(-3000) }).toEqual({
			ok: true,
			stderr: '',
		});
		const out = (name: string) => outputOf(result.run, name).items.map((i: any) => i.json);

		const folder = out('Folder')[0];
		const label = out('Label')[0];
		const assistant = sim.state.assistants.find((a: any) => a.id === 2);
		expect(assistant).toMatchObject({
			folder_id: folder.id,
			label_ids: [label.id],
			timezone: 'Asia/Kolkata',
		});
		const campaign = out('Campaign')[0];
		expect(campaign).toMatchObject({ name: 'E2E campaign', status: 'draft' });
		expect(out('Leads').map((l: any) => l.phone_number)).toEqual(['+4915100000888']);
		expect(out('Start Campaign')[0]).toMatchObject({ status: 'in-progress' });
		expect(out('SMS')[0]).toMatchObject({ to: '+4915112345678' });
		expect(sim.state.smsMessages).toHaveLength(1);
		expect(out('WhatsApp')[0].message_id).toBeDefined();
		expect(out('AI Reply')[0].reply).toEqual(expect.stringContaining('Are you open?'));
		expect(out('Buy Number')[0]).toMatchObject({ phone_number: available });
		expect(sim.state.phoneNumbers.map((p: any) => p.phone_number)).toContain(available);
		expect(out('SIP Trunk')[0]).toMatchObject({ sip_username: 'e2e-pbx' });
		expect(JSON.stringify(out('SIP Trunk'))).not.toContain('e2e-secret');
		expect(out('Labels').map((l: any) => l.name)).toContain('E2E label');
		// sends that cost money went out once each
		const posts = (path: string) =>
			sim.log.filter((e: any) => e.method === 'POST' && e.path === path).length;
		expect([
			posts('/api/user/sms'),
			posts('/api/user/whatsapp/send-freeform'),
			posts('/api/user/ai/generate-reply'),
			posts('/api/user/phone-numbers/purchase'),
		]).toEqual([1, 1, 1, 1]);
	});

	it('valid input reaches the service: fillers off in multimodal mode, an update that switches the webhook on without a URL', async () => {
		const id = await home.createWorkflow(
			server,
			chain('e2eClassicWf0002', [
				[
					'Multimodal',
					{
						resource: 'assistant',
						operation: 'update',
						assistantId: rl(2),
						mode: 'multimodal',
						updateFields: { multimodal_model_id: 10, voice_id: 10, fillers: false },
					},
				],
				[
					'Webhook On',
					{
						resource: 'assistant',
						operation: 'update',
						assistantId: rl(1),
						mode: 'keep',
						updateFields: { is_webhook_active: true },
					},
				],
			]),
		);
		await fetch(`${sim.url}/api/user/assistant/1`, {
			method: 'PUT',
			headers: { authorization: `Bearer ${SIM_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ webhook_url: 'https://example.com/calls', is_webhook_active: false }),
		});
		const before = sim.log.length;
		const result = await home.run(server, id);
		expect({ ok: result.ok, stderr: result.ok ? '' : String(result.raw).slice(-3000) }).toEqual({
			ok: true,
			stderr: '',
		});
		const puts = sim.log.slice(before).filter((e: any) => e.method === 'PUT');
		expect(puts.map((e: any) => e.body)).toEqual([
			{ mode: 'multimodal', multimodal_model_id: 10, voice_id: 10, fillers: false },
			{ is_webhook_active: true },
		]);
		expect(puts.map((e: any) => e.status)).toEqual([200, 200]);
	});

	it('time zones by region/city name reach the service, also ones newer than a runtime\'s data; UTC, an area the tz database lacks and an SMS number without "+" are refused before sending', async () => {
		const zones = ['Asia/Kolkata', 'America/Nuuk', 'Europe/Kyiv', 'America/Ciudad_Juarez'];
		const refusedZones = ['UTC', 'Mars/Olympus_Mons'];
		const steps: Array<[string, Record<string, unknown>]> = [...zones, ...refusedZones].map(
			(zone) => [
				`Zone ${zone}`,
				{
					resource: 'assistant',
					operation: 'update',
					assistantId: rl(2),
					mode: 'keep',
					updateFields: { timezone: zone },
				},
			],
		);
		steps.push([
			'SMS',
			{
				resource: 'sms',
				operation: 'send',
				fromNumberId: rl(1),
				to: '4915112345678',
				body: 'Thanks for your call!',
			},
		]);
		const workflow = chain('e2eClassicWf0003', steps);
		for (const node of workflow.nodes.slice(1)) node.onError = 'continueRegularOutput';
		const id = await home.createWorkflow(server, workflow);
		const before = sim.log.length;
		const smsBefore = sim.state.smsMessages.length;
		const result = await home.run(server, id);
		expect({ ok: result.ok, stderr: result.ok ? '' : String(result.raw).slice(-3000) }).toEqual({
			ok: true,
			stderr: '',
		});
		const out = (name: string) => outputOf(result.run, name).items.map((i: any) => i.json);

		const sent = sim.log.slice(before).filter((e: any) => !e.path.startsWith('/__sim'));
		expect(sent.map((e: any) => [e.method, e.path, e.body, e.status])).toEqual(
			zones.map((zone) => ['PUT', '/api/user/assistant/2', { timezone: zone }, 200]),
		);
		for (const zone of zones) expect(out(`Zone ${zone}`)[0]).toMatchObject({ id: 2 });
		expect(sim.state.assistants.find((a: any) => a.id === 2).timezone).toBe(
			zones[zones.length - 1],
		);
		for (const zone of refusedZones) {
			expect(out(`Zone ${zone}`)[0].error).toBe(
				`Timezone must be a region/city time zone name such as Europe/Berlin, got "${zone}"`,
			);
		}
		expect(out('SMS')[0].error).toBe(
			'To must be a phone number in E.164 form (a "+", the country code and the number, digits only, e.g. +4915112345678), got "4915112345678"',
		);
		expect(sim.state.smsMessages).toHaveLength(smsBefore);
	});
});

export {};
