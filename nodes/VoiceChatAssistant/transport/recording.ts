import type {
	FunctionsBase,
	IBinaryData,
	IExecuteFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, credentialSettings } from './credentials';
import type { RequestContext } from './credentials';

/**
 * A call's recording as n8n binary data. The API key goes along only when the
 * recording is served by the credential's own host; a recording on a storage
 * or CDN host is fetched without it (its URL carries its own access).
 */
export async function downloadRecording(
	ctx: IExecuteFunctions | IPollFunctions | IWebhookFunctions,
	url: string,
	callId: unknown,
): Promise<IBinaryData> {
	const settings = await credentialSettings(ctx as RequestContext);
	let sameHost = false;
	try {
		sameHost = new URL(url).origin === new URL(settings.baseUrl).origin;
	} catch {
		throw new NodeOperationError(
			ctx.getNode(),
			`The recording URL of call ${String(callId)} is not a URL`,
		);
	}
	const request = {
		method: 'GET' as const,
		url,
		encoding: 'arraybuffer' as const,
		returnFullResponse: true,
		timeout: 120_000,
	};
	let response: { body: ArrayBuffer | Buffer; headers: Record<string, unknown> };
	try {
		response = sameHost
			? await ctx.helpers.httpRequestWithAuthentication.call(
					ctx as unknown as FunctionsBase & IExecuteFunctions,
					CREDENTIAL_TYPE,
					request,
				)
			: await ctx.helpers.httpRequest(request);
	} catch (error) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The recording of call ${String(callId)} could not be downloaded: ${(error as Error).message?.split('\n')[0] ?? 'unknown error'}`,
		);
	}
	const data = Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body);
	const contentType = String(response.headers?.['content-type'] ?? 'audio/mpeg').split(';')[0];
	const name = new URL(url).pathname.split('/').pop() || `call-${String(callId)}.mp3`;
	return await ctx.helpers.prepareBinaryData(data, name, contentType);
}
