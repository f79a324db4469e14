/**
 * A scripted OpenAI-compatible server for the AI Agent e2e tests: what n8n's
 * OpenAI Chat Model node (LangChain's ChatOpenAI, Chat Completions API) talks
 * to when its credential's Base URL points here.
 *
 * - GET  /v1/models             a one-model list
 * - POST /v1/chat/completions   answers from the script, as JSON or, when the
 *                               request has `stream: true`, as SSE chunks
 *
 * The script is an array of steps, one per chat-completion request, in order:
 * - `{ tool: 'Create_Lead' | /Lead/, arguments: {...} }` answers with a call of
 *   the first tool of the request's `tools` whose name equals the string or
 *   matches the pattern (n8n derives the names from the node names)
 * - `{ final: (messages, body) => 'text' }` (or a plain string) answers with a
 *   final assistant message; the function gets the request's messages so it
 *   can quote a tool's result
 * A request after the last step is answered with HTTP 500 (the test asked for
 * fewer turns than the agent took) and noted in `errors`.
 *
 * Every request body received is kept in `requests` (parsed JSON), in order,
 * and its arrival time in `times`.
 * Node built-ins only; listens on 127.0.0.1, a free port.
 *
 *   const stub = await startOpenAiStub();
 *   stub.setScript([{ tool: /Lead/, arguments: { phone_number: '+49151...' } }, { final: (m) => ... }]);
 *   ... credential url: `${stub.url}/v1`
 *   await stub.close();
 */
const http = require('http');

const MODEL = 'gpt-stub-1';

/** The tool name of `tools` (OpenAI's `[{type: 'function', function: {name}}]`) a step asks for. */
function pickTool(tools, wanted) {
	const names = (tools || []).map((t) => t?.function?.name ?? t?.name).filter(Boolean);
	const found = names.find((name) =>
		wanted instanceof RegExp ? wanted.test(name) : name === wanted,
	);
	if (!found) throw new Error(`no tool matches ${wanted} among [${names.join(', ')}]`);
	return found;
}

/** The text of a message's content (a string or an array of content parts). */
function textOf(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((p) => (typeof p === 'string' ? p : (p?.text ?? ''))).join('');
	return content == null ? '' : JSON.stringify(content);
}

/** The answer of one step to one request: `{message, finishReason}` in Chat Completions form. */
function answer(step, body, index) {
	if (step && step.tool !== undefined) {
		const name = pickTool(body.tools, step.tool);
		return {
			finishReason: 'tool_calls',
			message: {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: step.id || `call_stub_${index + 1}`,
						type: 'function',
						function: { name, arguments: JSON.stringify(step.arguments ?? {}) },
					},
				],
			},
		};
	}
	const final = step?.final ?? step;
	const content = typeof final === 'function' ? final(body.messages || [], body) : String(final);
	return { finishReason: 'stop', message: { role: 'assistant', content } };
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function sendJson(res, status, data) {
	const text = JSON.stringify(data);
	res.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
	});
	res.end(text);
}

/** The answer as Server-Sent Events: a role chunk, the content or the tool call, the finish, usage, [DONE]. */
function sendStream(res, id, created, model, { message, finishReason }) {
	res.writeHead(200, {
		'content-type': 'text/event-stream',
		'cache-control': 'no-cache',
		connection: 'keep-alive',
	});
	const chunk = (delta, finish_reason = null, extra = {}) =>
		res.write(
			`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason, logprobs: null }], ...extra })}\n\n`,
		);
	chunk({ role: 'assistant', content: '' });
	if (message.tool_calls) {
		message.tool_calls.forEach((call, index) => {
			chunk({
				tool_calls: [
					{
						index,
						id: call.id,
						type: 'function',
						function: { name: call.function.name, arguments: '' },
					},
				],
			});
			chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] });
		});
	} else if (message.content) {
		chunk({ content: message.content });
	}
	chunk({}, finishReason);
	res.write(
		`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
	);
	res.write('data: [DONE]\n\n');
	res.end();
}

async function startOpenAiStub({ port = 0 } = {}) {
	let script = [];
	let next = 0;
	const requests = [];
	const times = [];
	const errors = [];

	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const url = new URL(req.url, 'http://stub');
			const path = url.pathname.replace(/\/+$/, '');
			try {
				if (req.method === 'GET' && /\/models$/.test(path)) {
					return sendJson(res, 200, {
						object: 'list',
						data: [{ id: MODEL, object: 'model', created: 1700000000, owned_by: 'stub' }],
					});
				}
				if (req.method === 'POST' && /\/chat\/completions$/.test(path)) {
					const text = Buffer.concat(chunks).toString('utf8');
					let body;
					try {
						body = JSON.parse(text);
					} catch {
						return sendJson(res, 400, {
							error: { message: 'body is not JSON', type: 'invalid_request_error' },
						});
					}
					const index = requests.length;
					requests.push(body);
					times.push(Date.now());
					if (next >= script.length) {
						const message = `the stub's script has ${script.length} step(s); request ${index + 1} has none`;
						errors.push(message);
						return sendJson(res, 500, { error: { message, type: 'server_error' } });
					}
					const step = script[next++];
					const result = answer(step, body, index);
					const id = `chatcmpl-stub-${index + 1}`;
					const created = Math.floor(Date.now() / 1000);
					const model = body.model || MODEL;
					if (body.stream) return sendStream(res, id, created, model, result);
					return sendJson(res, 200, {
						id,
						object: 'chat.completion',
						created,
						model,
						choices: [
							{
								index: 0,
								message: result.message,
								finish_reason: result.finishReason,
								logprobs: null,
							},
						],
						usage,
					});
				}
				sendJson(res, 404, {
					error: {
						message: `the stub has no ${req.method} ${url.pathname}`,
						type: 'invalid_request_error',
					},
				});
			} catch (error) {
				errors.push(error.message);
				sendJson(res, 500, { error: { message: error.message, type: 'server_error' } });
			}
		});
	});
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}`;

	return {
		url,
		/** Bodies of every chat-completion request, in order. */
		requests,
		/** When each of `requests` arrived (ms since the epoch). */
		times,
		/** What went wrong while answering (a request without a step, a tool no request offered). */
		errors,
		/** Replaces the script; the next request gets its first step. */
		setScript(steps) {
			script = steps;
			next = 0;
		},
		/** How many steps of the current script were used. */
		get used() {
			return next;
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startOpenAiStub, textOf, pickTool, MODEL };
