/**
 * What the Mid-Call Tool Request test files (midCallToolForm,
 * midCallToolRegistration, midCallToolRemoval, midCallToolSaving,
 * midCallToolAnswering) share: their describe block with its clock, a
 * service with state behind nock (the assistant endpoints and the tool
 * routes), the node's parameters, the tool body the node sends and the
 * registration it keeps in the static data.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { installFakeClock } from '../../helpers/fakeClock';
import { PRODUCTION_URL, locator } from '../../helpers/hookContext';
import { assistantService } from '../../helpers/registeredTrigger';

/**
 * The tests `title` of the Mid-Call Tool Request event: before each a fresh fake clock and the
 * rate limiters forgotten; after it nock's interceptors removed.
 */
export function describeMidCallTool(title: string, tests: () => void) {
	describe('Voice Chat Assistant Trigger: Mid-Call Tool Request', () => {
		let clock: ReturnType<typeof installFakeClock>;
		beforeEach(() => {
			resetLimiters();
			clock = installFakeClock();
		});
		afterEach(() => {
			clock.restore();
			nock.cleanAll();
		});
		describe(title, tests);
	});
}

export const TOOLS = '/api/user/tools';
export const SECRET = /^[A-Za-z0-9]{32}$/;

export interface Tool {
	id: number;
	name: string;
	endpoint: string;
	headers: IDataObject[];
	[key: string]: unknown;
}

export interface Assistant {
	id: number;
	tool_ids?: number[];
}

/** The service: the assistant endpoints and the tool routes. */
export function service(assistants: Assistant[], tools: Tool[] = []) {
	let nextId = 50;
	const tool = (uri: string) => tools.find((t) => t.id === Number(uri.split('/').pop()));
	const missing = [404, { message: 'Tool not found' }] as const;
	assistantService(assistants)
		.get(TOOLS)
		.reply(() => [200, tools])
		.post(TOOLS)
		.reply((_uri, body) => {
			const created = { id: nextId++, ...(body as IDataObject) } as Tool;
			tools.push(created);
			return [201, { message: 'Tool created successfully', data: created }];
		})
		.get(/^\/api\/user\/tools\/\d+$/)
		.reply((uri) => (tool(uri) ? [200, tool(uri)] : missing))
		.put(/^\/api\/user\/tools\/\d+$/)
		.reply((uri, body) => {
			const t = tool(uri);
			if (!t) return missing;
			Object.assign(t, body as IDataObject);
			return [200, { message: 'Tool updated successfully', data: t }];
		})
		.delete(/^\/api\/user\/tools\/\d+$/)
		.reply((uri) => {
			const t = tool(uri);
			if (!t) return missing;
			tools.splice(tools.indexOf(t), 1);
			return [200, { message: 'Tool deleted successfully' }];
		});
	return { assistants, tools };
}

/** The tool's parameters, as the node's Tool Parameters lists them and as the tool's schema sends them. */
export const SCHEMA = [
	{ name: 'date', type: 'string', description: 'The date, as YYYY-MM-DD' },
	{ name: 'people', type: 'number', description: 'How many people come' },
	{ name: 'urgent', type: 'boolean', description: 'Whether it is urgent' },
];
const DESCRIPTION =
	'Checks whether an appointment slot is free. Use it when the caller asks for a date.';

export function params(extra: IDataObject = {}): IDataObject {
	return {
		event: 'midCallTool',
		assistantId: locator(12),
		additionalAssistants: {},
		toolName: 'check_free_slot',
		toolDescription: DESCRIPTION,
		toolParameters: { parameter: SCHEMA.map((parameter) => ({ ...parameter })) },
		toolTimeout: 8,
		responseMode: 'lastNode',
		...extra,
	};
}

export function toolBody(secret: string, url = PRODUCTION_URL, extra: IDataObject = {}) {
	return JSON.stringify({
		name: 'check_free_slot',
		description: DESCRIPTION,
		endpoint: url,
		method: 'POST',
		timeout: 8,
		headers: [{ name: 'X-Tool-Secret', value: secret }],
		schema: SCHEMA,
		...extra,
	});
}

/** The stored registration of the tool that calls `url`. */
export function reg(staticData: IDataObject, url = PRODUCTION_URL): IDataObject | undefined {
	return ((staticData.midCallTools as IDataObject[] | undefined) ?? []).find(
		(r) => r.webhookUrl === url,
	);
}

export function secretOf(staticData: IDataObject, url = PRODUCTION_URL): string {
	return String(reg(staticData, url)?.secret);
}
