/**
 * Exactly once when the answer to a create is lost, in a real workflow run
 * against the simulator: a document upload (a file from n8n's binary store)
 * and a SIP trunk create whose answers are lost after the simulator stored
 * the object. One object at the simulator, one success item each. Lead →
 * Create: a lead its attempt stored is the item's; a lead an earlier run
 * stored goes through On Duplicate (a re-run import whose creates get no answer).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	DOCUMENT_UPLOAD,
	LEAD_IMPORT_PARAMETERS,
	control,
	loggedUpload,
	runAction,
	SERVICE,
	simulatorForTests,
	textFile,
} from './helpers/workflows';

const DOCS = '/api/user/knowledgebases/1/documents';
const TRUNKS = '/api/user/phone-numbers/sip-trunks';
const LEAD = '/api/user/lead';
const LEADS = '/api/user/leads';

describe('exactly once: Document → Create and SIP Trunk → Create with lost answers', () => {
	const sim = simulatorForTests();
	afterEach(async () => {
		await control(sim, 'faults', { clear: true });
	});

	it.each(['lose-502', 'lose-reset'] as const)(
		'a document upload whose answer is lost (%s): one document, one success item',
		async (kind) => {
			const name = `Opening hours (${kind})`;
			const text = 'Opening hours: Monday to Friday, 9 to 17.\n'.repeat(40);
			await control(sim, 'faults', { method: 'POST', path: DOCS, rate: 1, kinds: [kind] });
			const before = sim.log.length;
			const result = await runAction(
				sim,
				{ ...DOCUMENT_UPLOAD, name },
				{ rows: [{}], files: [{ data: textFile(text, 'hours.txt') }] },
			);
			expect(result.status).toBe('success');
			const items = result.outputOf(SERVICE);
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({ name, type: 'txt', created_by_earlier_attempt: true });
			const stored = sim.state.documents.filter((d: any) => d.name === name);
			expect(stored).toHaveLength(1);
			expect(items[0].json.id).toBe(stored[0].id);
			// the one upload carried the whole file; the item was then found in the list
			const requests = sim.log.slice(before).map((e) => `${e.method} ${e.path}`);
			expect(requests).toEqual([`POST ${DOCS}`, `GET ${DOCS}`]);
			const upload = sim.log.slice(before)[0] as any;
			expect(upload.body.files).toEqual([loggedUpload('hours.txt', 'text/plain', text)]);
		},
	);

	it.each([
		['lose-502', '+4930111111'],
		['lose-reset', '+4930222222'],
	] as const)(
		'a SIP trunk create whose answer is lost (%s): sent again, refused as a duplicate, one trunk, one success item',
		async (kind, phone) => {
			await control(sim, 'faults', { method: 'POST', path: TRUNKS, rate: 1, kinds: [kind] });
			const before = sim.log.length;
			const result = await runAction(sim, {
				resource: 'sipTrunk',
				operation: 'create',
				sip_trunk_type: 'number',
				phone_number: phone,
				sip_username: 'office-pbx',
				sip_password: 'TopSecret-99',
				sip_address: 'sip.provider.example',
				sip_calling_format: '+e164',
				inbound_authorization_type: 'auth',
				country_code: 'DE',
				additionalFields: { nickname: 'Office' },
			});
			expect(result.status).toBe('success');
			const items = result.outputOf(SERVICE);
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({
				phone_number: phone,
				sip_username: 'office-pbx',
				nickname: 'Office',
				created_by_earlier_attempt: true,
			});
			expect(JSON.stringify(items[0].json)).not.toContain('TopSecret-99');
			const stored = sim.state.phoneNumbers.filter(
				(p: any) => p.type === 'sip' && p.phone_number === phone,
			);
			expect(stored).toHaveLength(1);
			expect(items[0].json.id).toBe(stored[0].id);
			const requests = sim.log.slice(before).map((e) => `${e.method} ${e.path} ${e.status}`);
			expect(requests).toEqual([
				`POST ${TRUNKS} ${kind === 'lose-502' ? 502 : 'reset'}`,
				`POST ${TRUNKS} 409`,
				`GET ${TRUNKS} 200`,
			]);
		},
	);
});

describe('exactly once: Lead → Create with lost answers, and leads of an earlier run', () => {
	const sim = simulatorForTests();
	afterEach(async () => {
		await control(sim, 'faults', { clear: true });
	});

	const importLeads = async (
		rows: IDataObject[],
		options: IDataObject = {},
		extra: IDataObject = {},
	) =>
		await runAction(
			sim,
			{ ...LEAD_IMPORT_PARAMETERS, ...extra, options },
			{ rows, node: { onError: 'continueRegularOutput' } },
		);
	const stored = (phones: string[]) =>
		sim.state.leads.filter((l: any) => l.campaign_id === 1 && phones.includes(l.phone_number));
	/** The import ran 2 h 07 min ago: its leads' `created_at` (the simulator writes UTC) moved back. */
	const ranEarlier = (phones: string[]) => {
		for (const lead of stored(phones)) {
			const at = Date.parse(`${lead.created_at.replace(' ', 'T')}Z`) - 127 * 60_000;
			lead.created_at = new Date(at).toISOString().slice(0, 19).replace('T', ' ');
		}
	};
	const requests = (from: number) =>
		sim.log.slice(from).map((e: any) => `${e.method} ${e.path} ${e.status}`);

	it('a re-run import whose creates get 502s (nothing stored), On Duplicate = Fail: each row fails naming the phone number, no create sent twice', async () => {
		const rows = ['+4930333001', '+4930333002', '+4930333003'].map((phone, n) => ({
			phone,
			name: `Row ${n}`,
		}));
		const phones = rows.map((r) => r.phone);
		expect((await importLeads(rows)).status).toBe('success');
		ranEarlier(phones);
		const ids = stored(phones).map((l: any) => l.id);

		await control(sim, 'faults', { method: 'POST', path: LEAD, rate: 1, kinds: ['refuse-502'] });
		const before = sim.log.length;
		const again = await importLeads(rows, { onDuplicate: 'fail' });
		expect(again.status).toBe('success');
		const items = again.outputOf(SERVICE);
		expect(items.map((i) => i.json.error)).toEqual(
			rows.map(
				(r, n) =>
					`Campaign 1 already has a lead with the phone number ${r.phone} (lead ${ids[n]}); this item's create got no answer, and that lead is not proven its own (stored before the create was sent, with other data, or the run's first create, with no lead of this run to compare its ID with)`,
			),
		);
		// per row: the create (502), one read by phone; the create is not sent again
		expect(requests(before).sort()).toEqual(
			[...rows.map(() => `POST ${LEAD} 502`), ...rows.map(() => `GET ${LEADS} 200`)].sort(),
		);
		expect(stored(phones).map((l: any) => l.id)).toEqual(ids);
	});

	it('a re-run import whose creates get a 500, sent again and refused as duplicates: Use Stored Lead If Identical uses only the identical lead', async () => {
		const rows = [
			{ phone: '+4930444001', name: 'Ada' },
			{ phone: '+4930444002', name: 'Anna' },
		];
		const phones = rows.map((r) => r.phone);
		expect((await importLeads([rows[0], { ...rows[1], name: 'Ann' }])).status).toBe('success');
		ranEarlier(phones);
		const ids = stored(phones).map((l: any) => l.id);

		await control(sim, 'faults', {
			method: 'POST',
			path: LEAD,
			rate: 1,
			times: 2,
			kinds: ['refuse-500'],
		});
		const before = sim.log.length;
		const again = await importLeads(rows);
		const items = again.outputOf(SERVICE);
		expect(items[0].json).toMatchObject({ id: ids[0], already_stored: true });
		expect(items[0].json.created_by_earlier_attempt).toBeUndefined();
		expect(items[1].json.error).toEqual(
			expect.stringContaining('variable "customer_name": stored "Ann", sent "Anna"'),
		);
		expect(
			requests(before)
				.filter((r) => r.startsWith('POST'))
				.sort(),
		).toEqual([`POST ${LEAD} 422`, `POST ${LEAD} 422`, `POST ${LEAD} 500`, `POST ${LEAD} 500`]);
		expect(stored(phones).map((l: any) => l.id)).toEqual(ids);
	});

	it.each([
		['lose-502', '+4930555001'],
		['lose-reset', '+4930555002'],
	] as const)(
		"a lead create whose answer is lost after storing (%s), the row after one the run stored, On Duplicate = Fail: that lead is the item's (its ID above the first's), the create not sent again; as the run's first row it is not proven the item's",
		async (kind, phone) => {
			const first = `${phone}9`;
			await control(sim, 'faults', {
				method: 'POST',
				path: LEAD,
				rate: 1,
				kinds: [kind],
				after: 1,
				times: 1,
			});
			const before = sim.log.length;
			const result = await importLeads(
				[
					{ phone: first, name: 'Dan' },
					{ phone, name: 'Eve' },
				],
				{ onDuplicate: 'fail' },
				// one row in flight: the second is sent after the first's answer
				{ requestsInFlight: 1 },
			);
			const items = result.outputOf(SERVICE);
			expect(items).toHaveLength(2);
			expect(items[1].json).toMatchObject({
				phone_number: phone,
				variables: { customer_name: 'Eve' },
				created_by_earlier_attempt: true,
			});
			expect(stored([phone])).toHaveLength(1);
			expect(items[1].json.id).toBe(stored([phone])[0].id);
			expect(requests(before)).toEqual([
				`POST ${LEAD} 200`,
				`POST ${LEAD} ${kind === 'lose-502' ? 502 : 'reset'}`,
				`GET ${LEADS} 200`,
			]);
			// the run's first create: its lead cannot be told from one stored before, Fail fails it
			await control(sim, 'faults', { clear: true });
			await control(sim, 'faults', {
				method: 'POST',
				path: LEAD,
				rate: 1,
				kinds: [kind],
				times: 1,
			});
			const alone = await importLeads([{ phone: `${phone}8`, name: 'Fay' }], {
				onDuplicate: 'fail',
			});
			expect(alone.outputOf(SERVICE)[0].json.error).toContain('is not proven its own');
			expect(stored([`${phone}8`])).toHaveLength(1);
		},
	);
});
