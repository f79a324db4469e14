/**
 * Telephony: listing, searching, buying, naming and releasing phone numbers,
 * and SIP trunks, run as real workflows against the simulator.
 */
import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import type { Simulator } from '../helpers/workflows';
import { byId, simulatorForTests } from '../helpers/workflows';

const { exercised, operations } = operationRunner();

const requests = (sim: Simulator, method: string, path: string) =>
	sim.log.filter((entry) => entry.method === method && entry.path === path).length;

describe('Phone Number and SIP Trunk: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests();
	const phoneNumbers = operations(sim, 'phoneNumber');
	const sipTrunks = operations(sim, 'sipTrunk');
	const number = (id: number) => sim.state.phoneNumbers.find((p: any) => p.id === id);

	it('Phone Number: Get Many, Get Many SMS-Capable, Search Available', async () => {
		expect(await phoneNumbers('getMany', { returnAll: true })).toHaveLength(
			sim.state.phoneNumbers.length,
		);
		const sms = await phoneNumbers('getManySmsCapable', { returnAll: true });
		expect(sms.length).toBeGreaterThan(0);
		expect(sms.every((p) => p.sms_capable)).toBe(true);
		const found = await phoneNumbers('search', {
			country: 'GB',
			digits: '20',
			returnAll: false,
			limit: 3,
		});
		expect(found.length).toBeGreaterThan(0);
		expect(found.length).toBeLessThanOrEqual(3);
	});

	it('Phone Number: Search → Purchase → Update Nickname → Release (a second release fails)', async () => {
		const balance = sim.state.user.total_balance;
		const found = await phoneNumbers('search', { country: 'US', digits: '', returnAll: true });
		expect(found.length).toBeGreaterThan(2);
		const wanted = found[0].phone_number;

		// a number no search listed is not for sale; nothing is charged
		await expect(phoneNumbers('purchase', { phoneNumber: '+14155550999' })).rejects.toThrow(
			'This phone number is not available for purchase. Please search for available numbers first.',
		);

		const [bought] = await phoneNumbers('purchase', { phoneNumber: wanted });
		expect(bought).toMatchObject({
			phone_number: wanted,
			type: 'normal',
			country_code: 'US',
			message: 'Phone number purchased successfully.',
		});
		expect(number(bought.id)).toMatchObject({
			phone_number: wanted,
			type: 'normal',
			has_active_subscription: true,
			sms_capable: found[0].sms_capable,
		});
		expect(
			sim.state.phoneSubscriptions.find((s: any) => s.phone_number_id === bought.id),
		).toMatchObject({ status: 'active', interval: 'month' });
		expect(sim.state.phoneCharges.filter((c: any) => c.phone_number === wanted)).toHaveLength(1);
		expect(sim.state.user.total_balance).toBe(balance); // the payment method pays, not the balance

		// it left the search pool, and buying it again is refused: one request each, never repeated
		const again = await phoneNumbers('search', { country: 'US', digits: '', returnAll: true });
		expect(again.map((n) => n.phone_number)).not.toContain(wanted);
		await expect(phoneNumbers('purchase', { phoneNumber: wanted })).rejects.toThrow(
			'This phone number is already in use.',
		);
		expect(requests(sim, 'POST', '/api/user/phone-numbers/purchase')).toBe(3);

		// without a payment method
		sim.state.paymentMethod = null;
		await expect(phoneNumbers('purchase', { phoneNumber: again[0].phone_number })).rejects.toThrow(
			'No payment method found. Please add a payment method to your account.',
		);
		sim.state.paymentMethod = { brand: 'visa', last4: '4242', declines: false };
		expect(sim.state.phoneNumbers.some((p: any) => p.phone_number === again[0].phone_number)).toBe(
			false,
		);

		const [named] = await phoneNumbers('updateNickname', {
			phoneNumberId: byId(bought.id),
			nickname: 'Sales line',
		});
		expect(named).toMatchObject({
			id: bought.id,
			nickname: 'Sales line',
			message: 'Phone number updated successfully.',
		});
		expect(number(bought.id).nickname).toBe('Sales line');
		const listed = await phoneNumbers('getMany', { returnAll: true });
		expect(listed.find((p) => p.id === bought.id)).toMatchObject({ nickname: 'Sales line' });
		await expect(
			phoneNumbers('updateNickname', { phoneNumberId: byId(bought.id), nickname: 'x'.repeat(51) }),
		).rejects.toThrow('Nickname is too long: 51 characters, at most 50 are allowed');
		await phoneNumbers('updateNickname', { phoneNumberId: byId(bought.id), nickname: '' });
		expect(number(bought.id).nickname).toBeNull();
		await expect(
			phoneNumbers('updateNickname', { phoneNumberId: byId(999), nickname: 'A' }),
		).rejects.toThrow('Phone number not found.');

		// an assistant answers on the number; the release takes it away
		sim.state.assistants.find((a: any) => a.id === 2).phone_number_id = bought.id;
		const [released] = await phoneNumbers('release', { phoneNumberId: byId(bought.id) });
		expect(released).toEqual({
			released: true,
			id: bought.id,
			message:
				'Phone number released successfully. It will be removed at the end of the billing period.',
			removed: 'at end of billing period',
		});
		expect(number(bought.id)).toMatchObject({ release_scheduled: true });
		expect(
			sim.state.phoneSubscriptions.find((s: any) => s.phone_number_id === bought.id)
				.cancel_at_period_end,
		).toBe(true);
		expect(sim.state.assistants.find((a: any) => a.id === 2).phone_number_id).toBeNull();
		await expect(phoneNumbers('release', { phoneNumberId: byId(bought.id) })).rejects.toThrow(
			'Phone number is already scheduled for release.',
		);
	});

	it('SIP Trunk: Create → Get → Get Many → Update (auth → IP allowlist) → Delete', async () => {
		const [created] = await sipTrunks('create', {
			sip_trunk_type: 'number',
			phone_number: '+4930123456',
			sip_username: 'berlin-pbx',
			sip_password: 'Sup3r-Secret',
			sip_address: 'sip.berlin.example',
			sip_calling_format: 'national',
			inbound_authorization_type: 'auth',
			country_code: 'de',
			additionalFields: { nickname: 'Berlin' },
		});
		expect(created).toMatchObject({
			phone_number: '+4930123456',
			nickname: 'Berlin',
			sip_username: 'berlin-pbx',
			sip_address: 'sip.berlin.example',
			sip_calling_format: 'national',
			inbound_authorization_type: 'auth',
			allowed_inbound_ips: null,
			outbound_proxy: false,
			country_code: 'DE',
			message: 'SIP trunk created successfully.',
		});
		expect(JSON.stringify(created)).not.toContain('Sup3r-Secret');
		expect(number(created.id)).toMatchObject({ type: 'sip', sip_password: 'Sup3r-Secret' });

		// the same number, username and address again: the service's 409
		await expect(
			sipTrunks('create', {
				sip_trunk_type: 'number',
				phone_number: '+4930123456',
				sip_username: 'berlin-pbx',
				sip_password: 'other',
				sip_address: 'sip.berlin.example',
				sip_calling_format: '+e164',
				inbound_authorization_type: 'auth',
				country_code: 'DE',
				additionalFields: {},
			}),
		).rejects.toThrow('A SIP trunk with this phone number, username and address already exists.');

		const [got] = await sipTrunks('get', { sipTrunkId: byId(created.id) });
		expect(got).toMatchObject({
			id: created.id,
			nickname: 'Berlin',
			inbound_trunk_id: expect.any(String),
		});
		expect(got).not.toHaveProperty('sip_password');
		await expect(sipTrunks('get', { sipTrunkId: byId(1) })).rejects.toThrow('SIP trunk not found.');

		const all = await sipTrunks('getMany', { returnAll: true });
		expect(all.map((t) => t.id).sort()).toEqual([5, created.id]);
		expect(await sipTrunks('getMany', { returnAll: false, limit: 1 })).toHaveLength(1);

		await expect(
			sipTrunks('update', {
				sipTrunkId: byId(created.id),
				updateFields: { inbound_authorization_type: 'ip' },
			}),
		).rejects.toThrow(
			'Allowed Inbound IPs is required when switching Inbound Authorization to IP Allowlist',
		);
		const [switched] = await sipTrunks('update', {
			sipTrunkId: byId(created.id),
			updateFields: {
				inbound_authorization_type: 'ip',
				allowed_inbound_ips: '203.0.113.10, 2001:db8::1',
			},
		});
		expect(switched).toMatchObject({
			inbound_authorization_type: 'ip',
			allowed_inbound_ips: ['203.0.113.10', '2001:db8::1'],
			message: 'SIP trunk updated successfully.',
		});
		expect(number(created.id).allowed_inbound_ips).toEqual(['203.0.113.10', '2001:db8::1']);
		const before = number(created.id).outbound_trunk_id;
		await sipTrunks('update', {
			sipTrunkId: byId(created.id),
			updateFields: { sip_password: 'n3w-pass' },
		});
		expect(number(created.id).sip_password).toBe('n3w-pass');
		expect(number(created.id).outbound_trunk_id).not.toBe(before); // re-provisioned
		await sipTrunks('update', {
			sipTrunkId: byId(created.id),
			updateFields: { inbound_authorization_type: 'auth' },
		});
		expect(number(created.id).allowed_inbound_ips).toBeNull();

		// the delete operation never releases a bought number
		await expect(sipTrunks('delete', { sipTrunkId: byId(2) })).rejects.toThrow(
			'SIP trunk not found.',
		);
		expect(number(2)).toBeDefined();

		const [deleted] = await sipTrunks('delete', { sipTrunkId: byId(created.id) });
		expect(deleted).toEqual({
			deleted: true,
			id: created.id,
			message: 'Phone number deleted successfully.',
		});
		expect(number(created.id)).toBeUndefined();
		await expect(sipTrunks('get', { sipTrunkId: byId(created.id) })).rejects.toThrow(
			'SIP trunk not found.',
		);
	});

	it('ran every operation of Phone Number and SIP Trunk', () => {
		expect(ownRuns('telephony', exercised)).toEqual([...RESOURCE_FILES.telephony].sort());
	});
});
