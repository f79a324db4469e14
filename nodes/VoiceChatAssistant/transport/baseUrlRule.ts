/**
 * Where the API key may go: one rule for the credential's `authenticate` (an
 * n8n expression, KEY_MAY_GO_EXPRESSION, built from the patterns below) and
 * for the nodes' transport (credentials.ts, keyMayGoTo). No imports: the
 * credential file loads this module too.
 *
 * The rule reads the Base URL's text, trimmed as the request's URL is, and
 * accepts a text only when its first characters fix the host:
 *
 * - `https://` and anything after it (encrypted, whatever the host);
 * - `http://` directly followed by `localhost`, `127.a.b.c` (each part 0 to
 *   255, without leading zeros) or `[::1]`, an optional port of digits, and
 *   then the end or `/`, `?` or `#`.
 *
 * URL parsers drop tabs and newlines anywhere, read `\` as `/`, take what
 * comes before an `@` as user info, decode percent-escapes in host names and
 * read the scheme in any case: none of that can happen inside an accepted
 * prefix, so the host the request goes to is the host the rule read. Names
 * under `.localhost` are not accepted: n8n hands them to the system's
 * resolver, which may ask DNS, so they need not be this machine.
 */

/** The text of a Base URL as the rule reads it (the request's URL is trimmed the same way). */
export function baseUrlText(value: unknown): string {
	return String(value || '').trim();
}

/** An encrypted Base URL; an empty Base URL means the default, https://app.famulor.de. */
export const HTTPS_RULE = /^https:\/\//i;

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';

/**
 * Plain http to this machine: `localhost`, 127.0.0.0/8 or `[::1]`, then a
 * port or nothing, then the end, `/`, `?` or `#`. No braces in the pattern:
 * n8n's expressions end at `}}`.
 */
export const LOOPBACK_HTTP_RULE = new RegExp(
	`^http://(localhost|127\\.${OCTET}\\.${OCTET}\\.${OCTET}|\\[::1\\])(:[0-9]+)?([/?#]|$)`,
	'i',
);

/** Whether the API key may go to this Base URL (the credential's value as entered). */
export function keyMayGoTo(baseUrl: unknown): boolean {
	const text = baseUrlText(baseUrl);
	return HTTPS_RULE.test(text || 'https://') || LOOPBACK_HTTP_RULE.test(text);
}

const TEXT = 'String($credentials.baseUrl || "").trim()';

/**
 * keyMayGoTo as an n8n expression's body (true or false), for the
 * credential's `authenticate`: the same patterns as regular expression
 * literals (RegExp is among the globals of n8n's expressions, URL is not).
 */
export const KEY_MAY_GO_EXPRESSION = `(/${HTTPS_RULE.source}/i.test(${TEXT} || "https://") || /${LOOPBACK_HTTP_RULE.source}/i.test(${TEXT}))`;
