/**
 * Exactly once when the answer to a create is lost, in a real workflow run
 * against the simulator: a document upload (a file from n8n's binary store)
 * and a SIP trunk create whose answers are lost after the simulator stored
 * the object. One object at the simulator, one success item each.
 */
import { createHash } from 'crypto';

import { runWorkflow } from './helpers/runWorkflow';
import {
	actionWorkflow,
	byId,
	control,
	SERVICE,
	simCredentials,
	simulatorForTests,
} from './helpers/workflows';

const DOCS = '/api/user/knowledgebases/1/documents';
const TRUNKS = '/api/user/phone-numbers/sip-trunks';

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
			const result = await runWorkflow(
				actionWorkflow(
					{
						resource: 'document',
						operation: 'create',
						knowledgebaseId: byId(1),
						name,
						type: 'auto',
						binaryPropertyName: 'data',
					},
					{
						rows: [{}],
						files: [{ data: { text, fileName: 'hours.txt', mimeType: 'text/plain' } }],
					},
				),
				{ credentials: simCredentials(sim) },
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
			expect(upload.body.files).toEqual([
				{
					field: 'file',
					filename: 'hours.txt',
					contentType: 'text/plain',
					size: Buffer.byteLength(text),
					sha256: createHash('sha256').update(text).digest('hex'),
				},
			]);
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
			const result = await runWorkflow(
				actionWorkflow({
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
				}),
				{ credentials: simCredentials(sim) },
			);
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
