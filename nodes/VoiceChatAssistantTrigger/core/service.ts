import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/*
 * What every event family that registers at the service needs (calls/,
 * midCallTool/): that the service can reach this n8n, and the service's
 * errors as n8n errors that name the assistant.
 */

/** The numbers of a dotted IPv4 address, or undefined. */
function ipv4(host: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (!match) return undefined;
	const parts = match.slice(1).map(Number);
	return parts.every((p) => p <= 255) ? parts : undefined;
}

function localIpv4([a, b]: number[]): boolean {
	return (
		a === 127 || // loopback
		a === 10 ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 169 && b === 254) || // link-local
		a === 0
	);
}

/**
 * Whether a URL's host is one that only this machine or its private network
 * can reach: localhost, loopback (127/8, ::1), private (10/8, 172.16/12,
 * 192.168/16, fc00::/7) or link-local (169.254/16, fe80::/10) addresses.
 */
export function isLocalHost(hostname: string): boolean {
	const host = hostname
		.toLowerCase()
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	const v4 = ipv4(host);
	if (v4) return localIpv4(v4);
	if (!host.includes(':')) return false;
	if (host === '::1' || host === '::') return true;
	// IPv4-mapped (::ffff:a.b.c.d, which URL writes as ::ffff:xxxx:xxxx)
	const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(host);
	if (mapped) {
		if (mapped[1]) return localIpv4(ipv4(mapped[1]) ?? [255]);
		const high = parseInt(mapped[2], 16);
		return localIpv4([high >> 8, high & 0xff]);
	}
	const first = parseInt(host.split(':')[0] || '0', 16);
	return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

function hostOfUrl(url: string): string | undefined {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
}

/**
 * Refuses an activation the service could never deliver to: n8n's webhook
 * URL on a local address while the service (the credential's Base URL,
 * read only then) is not. When both are local (a service on this machine or
 * network) nothing is refused.
 */
export async function assertReachable(
	node: INode,
	webhookUrl: string,
	serviceBaseUrl: () => Promise<string>,
): Promise<void> {
	const webhookHost = hostOfUrl(webhookUrl);
	if (webhookHost === undefined || !isLocalHost(webhookHost)) return;
	const serviceHost = hostOfUrl(await serviceBaseUrl());
	if (serviceHost === undefined || isLocalHost(serviceHost)) return;
	throw new NodeOperationError(
		node,
		`The service cannot reach this n8n: its webhook URL is on ${webhookHost}, a local address`,
		{
			description: `n8n builds webhook URLs from its N8N_WEBHOOK_URL setting (WEBHOOK_URL on n8n 1.x), which is not set to an address the service at ${serviceHost} can reach. Set N8N_WEBHOOK_URL (on n8n 1.x WEBHOOK_URL) to the public https address of this n8n (for example N8N_WEBHOOK_URL=https://n8n.example.com/) and restart n8n, then activate again.`,
		},
	);
}

/** The error as n8n's own error types: NodeApiError and NodeOperationError as they are, anything else wrapped. */
export function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}

/** Names the assistant in an error of the service, keeping the error's type. */
export function aboutAssistant(
	node: INode,
	error: unknown,
	assistantId: number,
	action: string,
): NodeApiError | NodeOperationError {
	const nodeError = asNodeError(node, error);
	if (!nodeError.message.startsWith(`Assistant ${assistantId}`)) {
		nodeError.message = `${action} for assistant ${assistantId} failed: ${nodeError.message}`;
	}
	return nodeError;
}
