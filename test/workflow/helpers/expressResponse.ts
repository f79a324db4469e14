import type { ServerResponse } from 'node:http';

import type { Delivery } from './workflowTypes';

/** The part of express's Response that nodes use to answer a webhook call. */
export function expressLikeResponse(res: ServerResponse, delivery: Delivery) {
	const response = {
		headersSent: false,
		status(code: number) {
			res.statusCode = code;
			return response;
		},
		setHeader(name: string, value: string) {
			res.setHeader(name, value);
			return response;
		},
		json(body: unknown) {
			res.setHeader('content-type', 'application/json');
			return response.send(JSON.stringify(body), body);
		},
		send(text: string, parsed?: unknown) {
			delivery.statusCode = res.statusCode;
			delivery.response = parsed ?? text;
			response.headersSent = true;
			res.end(text);
			return response;
		},
		end() {
			return response.send('');
		},
	};
	return response;
}
