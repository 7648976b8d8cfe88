/**
 * Scripted OpenAI-compatible model server for driving the real `zero` binary in tests.
 *
 * zero (v0.8.0) talks to an `openai-compatible` provider with `POST {baseUrl}/chat/completions`
 * and parses its Server-Sent Events as zero's `internal/providers/openai/provider.go` and
 * `tool_state.go` do. Each queued {@link ScriptedResponse} answers one chat-completions request, in
 * order. When the queue is empty the server answers with a short plain text, so the extra requests
 * zero sends to nudge the model on (`internal/agent/loop.go`) never hang.
 *
 * Node built-ins only.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedToolCall {
	/** Tool call id, e.g. `call_1`. */
	id: string;
	/** zero tool name, e.g. `read_file`, `write_file`, `bash`. */
	name: string;
	/** Arguments; objects are JSON-encoded, strings are sent verbatim (may be invalid JSON on purpose). */
	args: object | string;
	/** Number of `function.arguments` fragments after the first chunk (default 1). */
	splitInto?: number;
}

export interface ScriptedHttpError {
	status: number;
	message: string;
	/** `error.type` in the JSON body (default `server_error`). */
	type?: string;
	/** `error.code` in the JSON body. */
	code?: string | number;
	/** Extra response headers, e.g. `{ 'retry-after': '0' }`. */
	headers?: Record<string, string>;
}

export interface ScriptedStreamError {
	message: string;
	type?: string;
	code?: string | number;
}

export interface ScriptedResponse {
	/** `delta.reasoning_content` chunks, streamed first. */
	reasoning?: string[];
	/** `delta.content` chunks, streamed after the reasoning. */
	text?: string[];
	/** Tool calls, streamed after the text (first chunk carries `index`, `id`, `function.name`). */
	toolCalls?: ScriptedToolCall[];
	/**
	 * Usage chunk (`choices: []`, `usage`) sent after the finish chunk. Omitted when absent.
	 * `cached`: `usage.prompt_tokens_details.cached_tokens`.
	 */
	usage?: { prompt: number; completion: number; cached?: number };
	/** Delay in ms before every chunk (and before `[DONE]`). Use a large value for a slow stream. */
	delayMs?: number;
	/**
	 * The answer waits until this settles: a test holds a run mid-turn (e.g. two runs live at once)
	 * and lets it go when it has seen what it wanted, with no timing involved.
	 */
	hold?: Promise<unknown>;
	/** Answer with a non-2xx JSON error instead of a stream. */
	httpError?: ScriptedHttpError;
	/** After the reasoning/text chunks, send `data: {"error":{...}}` and end the body. */
	streamError?: string | ScriptedStreamError;
	/** `finish_reason` of the finish chunk (default `tool_calls` with tool calls, else `stop`). */
	finishReason?: string;
	/** Do not send `data: [DONE]` (the end of the body then terminates the stream). */
	omitDone?: boolean;
}

/** Headers as Node parses them (lower-case names). */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export interface RecordedRequest {
	/** 0-based position among chat-completions requests. */
	index: number;
	method: string;
	path: string;
	headers: RequestHeaders;
	/** Parsed JSON request body (`undefined` if it was not valid JSON). */
	body: ChatCompletionRequest | undefined;
	rawBody: string;
	/** The scripted response used, or `undefined` when the fallback text answered. */
	response: ScriptedResponse | undefined;
	/** `pending` while streaming, `complete` when the body was fully written, `aborted` if the client left first. */
	outcome: 'pending' | 'complete' | 'aborted';
	/** HTTP status answered. */
	status: number;
}

export interface OtherRequest {
	method: string;
	path: string;
	headers: RequestHeaders;
	/** HTTP status answered. */
	status: number;
}

/** The subset of the chat-completions request body zero sends. */
export interface ChatCompletionRequest {
	model?: string;
	messages?: ChatMessage[];
	tools?: {
		type: string;
		function: { name: string; description?: string; parameters?: unknown };
	}[];
	stream?: boolean;
	stream_options?: { include_usage?: boolean };
	[key: string]: unknown;
}

export interface ChatMessage {
	role: string;
	content?: string | { type: string; text?: string; image_url?: { url: string } }[];
	tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
	tool_call_id?: string;
	[key: string]: unknown;
}

export interface ModelServerOptions {
	/** Model ids returned by `GET /v1/models` (default: empty list). */
	models?: string[];
	/** Text answered when the script queue is empty (default `OK.`). */
	fallbackText?: string;
	/**
	 * When set, every request whose `Authorization` header is not `Bearer <requireApiKey>` gets an
	 * OpenAI-style HTTP 401 (`invalid_api_key`) and does not consume a scripted response.
	 */
	requireApiKey?: string;
}

export interface ModelServer {
	/** `http://127.0.0.1:<port>/v1` */
	readonly baseUrl: string;
	readonly port: number;
	/** Queue responses for the next chat-completions requests, in order (appends to the queue). */
	script(responses: ScriptedResponse[]): void;
	/** Number of scripted responses not consumed yet. */
	pendingCount(): number;
	/** Drop every scripted response not consumed yet; returns how many were dropped. */
	clearScript(): number;
	/** Chat-completions requests received so far, in arrival order. */
	readonly requests: RecordedRequest[];
	/** Every other request (e.g. `GET /v1/models`, `HEAD /v1`). */
	readonly otherRequests: OtherRequest[];
	/** Replace the list served by `GET /v1/models`. */
	setModels(models: string[]): void;
	/** Change (or clear with `undefined`) the API key required on every request. */
	setRequiredApiKey(key: string | undefined): void;
	/** Resolve once at least `count` chat-completions requests have arrived. */
	waitForRequests(count: number, timeoutMs?: number): Promise<void>;
	/** Stop listening, abort open SSE responses and drop all connections. */
	close(): Promise<void>;
}

interface Chunk {
	choices: {
		index: number;
		delta: Record<string, unknown>;
		finish_reason: string | null;
	}[];
	usage?: {
		prompt_tokens: number;
		completion_tokens: number;
		total_tokens: number;
		prompt_tokens_details?: { cached_tokens: number };
	};
}

/** Build the ordered list of SSE `data:` payloads for one scripted response. */
export function buildSseChunks(response: ScriptedResponse, model = 'fake-model'): string[] {
	const id = 'chatcmpl-fake';
	const created = 1_700_000_000;
	const envelope = (chunk: Chunk): string =>
		JSON.stringify({ id, object: 'chat.completion.chunk', created, model, ...chunk });
	const delta = (value: Record<string, unknown>, finishReason: string | null = null): string =>
		envelope({ choices: [{ index: 0, delta: value, finish_reason: finishReason }] });

	const payloads: string[] = [];
	let first = true;
	const withRole = (value: Record<string, unknown>): Record<string, unknown> => {
		if (!first) {
			return value;
		}
		first = false;
		return { role: 'assistant', ...value };
	};

	for (const piece of response.reasoning ?? []) {
		payloads.push(delta(withRole({ reasoning_content: piece })));
	}
	for (const piece of response.text ?? []) {
		payloads.push(delta(withRole({ content: piece })));
	}
	const toolCalls = response.toolCalls ?? [];
	toolCalls.forEach((call, index) => {
		payloads.push(
			delta(
				withRole({
					tool_calls: [
						{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
					],
				}),
			),
		);
		const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
		for (const fragment of splitString(args, call.splitInto ?? 1)) {
			payloads.push(delta({ tool_calls: [{ index, function: { arguments: fragment } }] }));
		}
	});

	if (response.streamError !== undefined) {
		const error: ScriptedStreamError =
			typeof response.streamError === 'string'
				? { message: response.streamError }
				: response.streamError;
		payloads.push(
			JSON.stringify({
				error: {
					message: error.message,
					type: error.type ?? 'server_error',
					code: error.code ?? null,
				},
			}),
		);
		return payloads;
	}

	const finishReason = response.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
	payloads.push(delta(first ? { role: 'assistant' } : {}, finishReason));
	if (response.usage) {
		const { prompt, completion, cached } = response.usage;
		payloads.push(
			envelope({
				choices: [],
				usage: {
					prompt_tokens: prompt,
					completion_tokens: completion,
					total_tokens: prompt + completion,
					...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
				},
			}),
		);
	}
	if (!response.omitDone) {
		payloads.push('[DONE]');
	}
	return payloads;
}

/** Split `value` into `parts` non-empty pieces of near-equal length (never splits a surrogate pair). */
function splitString(value: string, parts: number): string[] {
	const chars = Array.from(value);
	const count = Math.max(1, Math.min(Math.floor(parts), chars.length));
	if (chars.length === 0) {
		return [];
	}
	const size = Math.ceil(chars.length / count);
	const pieces: string[] = [];
	for (let start = 0; start < chars.length; start += size) {
		pieces.push(chars.slice(start, start + size).join(''));
	}
	return pieces;
}

function readBody(request: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		request.on('error', reject);
	});
}

function parseJson(raw: string): ChatCompletionRequest | undefined {
	try {
		const value: unknown = JSON.parse(raw);
		return typeof value === 'object' && value !== null && !Array.isArray(value)
			? (value as ChatCompletionRequest)
			: undefined;
	} catch {
		return undefined;
	}
}

export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
	const queue: ScriptedResponse[] = [];
	const requests: RecordedRequest[] = [];
	const otherRequests: OtherRequest[] = [];
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();
	const waiters: { count: number; resolve: () => void }[] = [];
	let models = options.models ?? [];
	let requiredApiKey = options.requireApiKey;
	const fallback: ScriptedResponse = { text: [options.fallbackText ?? 'OK.'] };
	let closed = false;

	const notifyWaiters = (): void => {
		for (const waiter of [...waiters]) {
			if (requests.length >= waiter.count) {
				waiters.splice(waiters.indexOf(waiter), 1);
				waiter.resolve();
			}
		}
	};

	const sleep = (ms: number): Promise<void> =>
		new Promise((resolve) => {
			if (ms <= 0) {
				resolve();
				return;
			}
			const timer = setTimeout(() => {
				timers.delete(timer);
				resolve();
			}, ms);
			timers.add(timer);
		});

	const streamResponse = async (
		response: http.ServerResponse,
		scripted: ScriptedResponse,
		record: RecordedRequest,
	): Promise<void> => {
		const model = record.body?.model ?? 'fake-model';
		response.writeHead(200, {
			'content-type': 'text/event-stream',
			'cache-control': 'no-cache',
			connection: 'keep-alive',
		});
		for (const payload of buildSseChunks(scripted, model)) {
			await sleep(scripted.delayMs ?? 0);
			if (closed || response.destroyed || response.writableEnded) {
				record.outcome = 'aborted';
				return;
			}
			response.write(`data: ${payload}\n\n`);
		}
		response.end();
		record.outcome = 'complete';
	};

	const authorized = (request: http.IncomingMessage): boolean =>
		requiredApiKey === undefined || request.headers.authorization === `Bearer ${requiredApiKey}`;

	const rejectUnauthorized = (response: http.ServerResponse): void => {
		response.writeHead(401, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				error: {
					message: 'Incorrect API key provided.',
					type: 'invalid_request_error',
					code: 'invalid_api_key',
				},
			}),
		);
	};

	const handle = async (
		request: http.IncomingMessage,
		response: http.ServerResponse,
	): Promise<void> => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		const path = url.pathname.replace(/\/+$/, '');
		const method = request.method ?? 'GET';

		if (method === 'POST' && path === '/v1/chat/completions') {
			const rawBody = await readBody(request);
			const isAuthorized = authorized(request);
			const scripted = isAuthorized ? queue.shift() : undefined;
			const record: RecordedRequest = {
				index: requests.length,
				method,
				path: url.pathname,
				headers: { ...request.headers },
				body: parseJson(rawBody),
				rawBody,
				response: scripted,
				outcome: 'pending',
				status: 200,
			};
			requests.push(record);
			notifyWaiters();
			if (!isAuthorized) {
				record.status = 401;
				record.outcome = 'complete';
				rejectUnauthorized(response);
				return;
			}
			response.on('close', () => {
				if (record.outcome === 'pending') {
					record.outcome = 'aborted';
				}
			});
			const effective = scripted ?? fallback;
			await effective.hold?.catch(() => undefined);
			if (effective.httpError) {
				const { status, message, type, code, headers } = effective.httpError;
				await sleep(effective.delayMs ?? 0);
				record.status = status;
				response.writeHead(status, { 'content-type': 'application/json', ...headers });
				response.end(
					JSON.stringify({ error: { message, type: type ?? 'server_error', code: code ?? null } }),
				);
				record.outcome = 'complete';
				return;
			}
			await streamResponse(response, effective, record);
			return;
		}

		await readBody(request);
		const other: OtherRequest = {
			method,
			path: url.pathname,
			headers: { ...request.headers },
			status: 200,
		};
		otherRequests.push(other);
		if (!authorized(request)) {
			other.status = 401;
			rejectUnauthorized(response);
			return;
		}
		if (method === 'GET' && path === '/v1/models') {
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify({
					object: 'list',
					data: models.map((id) => ({
						id,
						object: 'model',
						created: 1_700_000_000,
						owned_by: 'fake',
					})),
				}),
			);
			return;
		}
		if (method === 'HEAD') {
			response.writeHead(200);
			response.end();
			return;
		}
		other.status = 404;
		response.writeHead(404, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				error: { message: `no route for ${method} ${url.pathname}`, type: 'not_found' },
			}),
		);
	};

	const server = http.createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			if (!response.headersSent) {
				response.writeHead(500, { 'content-type': 'application/json' });
			}
			response.end(JSON.stringify({ error: { message: String(error), type: 'harness_error' } }));
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;

	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		port,
		requests,
		otherRequests,
		script(responses: ScriptedResponse[]): void {
			queue.push(...responses);
		},
		pendingCount(): number {
			return queue.length;
		},
		clearScript(): number {
			return queue.splice(0, queue.length).length;
		},
		setModels(next: string[]): void {
			models = [...next];
		},
		setRequiredApiKey(key: string | undefined): void {
			requiredApiKey = key;
		},
		waitForRequests(count: number, timeoutMs = 30_000): Promise<void> {
			if (requests.length >= count) {
				return Promise.resolve();
			}
			return new Promise((resolve, reject) => {
				const timer = setTimeout(() => {
					waiters.splice(waiters.indexOf(waiter), 1);
					reject(
						new Error(
							`model server: timed out waiting for ${count} request(s), got ${requests.length}`,
						),
					);
				}, timeoutMs);
				const waiter = {
					count,
					resolve: (): void => {
						clearTimeout(timer);
						resolve();
					},
				};
				waiters.push(waiter);
			});
		},
		close(): Promise<void> {
			closed = true;
			for (const request of requests) {
				if (request.outcome === 'pending') {
					request.outcome = 'aborted';
				}
			}
			for (const timer of timers) {
				clearTimeout(timer);
			}
			timers.clear();
			return new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
				for (const socket of sockets) {
					socket.destroy();
				}
			});
		},
	};
}
