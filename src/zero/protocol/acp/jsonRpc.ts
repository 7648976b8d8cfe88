/**
 * JSON-RPC 2.0 over newline-delimited JSON, as `zero acp` frames it: one object per line in each
 * direction. Transport-agnostic (bytes in through `receive`, lines out through `write`), so the
 * framing is tested without a process.
 *
 * Nothing zero writes can throw out of here: a line that is not JSON, not an object, not JSON-RPC,
 * over the line cap, or a response to an id we never used becomes a typed diagnostic and the
 * connection keeps going. Requests zero sends are answered by `onRequest`; an unknown method gets
 * -32601 and a failing handler -32603, which zero treats as a deny (fail closed).
 *
 * Its errors live in rpcErrors.ts, the id handling in wireId.ts, reading a skipped line's head and
 * issue wording in jsonRpcEnvelope.ts.
 */
import type { z } from 'zod';
import { DEFAULT_MAX_LINE_BYTES, LineDecoder } from '../lineDecoder';
import { MAX_ACP_DEPTH_MARKER, capNesting, excerptOf, type ProtocolDiagnostic } from '../parseLine';
import type { AcpDiagnostic } from './outcomes';
import { JSON_RPC_ERROR_CODES, JsonRpcErrorSchema, type JsonRpcError } from './schemas';
import {
	AcpConnectionClosedError,
	AcpInvalidResultError,
	AcpLineTooLongError,
	AcpRequestError,
	AcpTimeoutError,
} from './rpcErrors';
import { isEchoableWireId, MAX_WIRE_ID_CHARS, rawMemberText, type WireId } from './wireId';
import { describeIssues, salvageEnvelope, tooLongIdError } from './jsonRpcEnvelope';
import { safeParseUntrusted } from '../untrustedParse';

export type { AcpDiagnostic } from './outcomes';
export type { WireId } from './wireId';
export {
	AcpConnectionClosedError,
	AcpInvalidResultError,
	AcpLineTooLongError,
	AcpRequestError,
	AcpTimeoutError,
} from './rpcErrors';

export type IncomingRequestReply = { result: unknown } | { error: JsonRpcError };

export interface JsonRpcConnectionOptions {
	/** Writes one complete line (ending in `\n`) to the peer. */
	write(text: string): void;
	/** Longest line accepted from the peer (default 16 MiB); longer lines are skipped. */
	maxLineBytes?: number;
	onNotification(method: string, params: unknown, line: string): void;
	/**
	 * Answers a request the peer sent; may take as long as it needs (permission prompts wait). `id`
	 * is the id's JSON text as zero wrote it (`7` and `"7"` are two ids), unique among the requests
	 * still waiting for an answer.
	 */
	onRequest(
		method: string,
		params: unknown,
		id: WireId,
		line: string,
	): Promise<IncomingRequestReply>;
	onDiagnostic(diagnostic: AcpDiagnostic): void;
	/** Every line in both directions, for the protocol trace. */
	onTrace?(direction: 'in' | 'out', line: string): void;
}

export interface RequestOptions {
	/** Reject with {@link AcpTimeoutError} after this long (the pending entry is dropped). */
	timeoutMs?: number;
}

interface Pending {
	method: string;
	resolve(result: unknown, line: string): void;
	reject(error: Error): void;
	timer?: ReturnType<typeof setTimeout>;
}

const MIB = 1024 * 1024;

export class JsonRpcConnection {
	private readonly decoder: LineDecoder;
	private readonly pending = new Map<number, Pending>();
	/** Requests of zero's still waiting for our answer, by wire id. */
	private readonly incoming = new Set<WireId>();
	private readonly maxLineBytes: number;
	private nextId = 1;
	private closedReason: string | undefined;

	constructor(private readonly options: JsonRpcConnectionOptions) {
		this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
		this.decoder = new LineDecoder(
			{
				line: (text) => this.handleLine(text),
				oversize: ({ bytes, excerpt }) => this.handleOversize(bytes, excerpt),
			},
			this.maxLineBytes,
		);
	}

	get closed(): boolean {
		return this.closedReason !== undefined;
	}

	/** Requests of ours still waiting for an answer. */
	get pendingCount(): number {
		return this.pending.size;
	}

	/** Requests of zero's still waiting for our answer. */
	get incomingCount(): number {
		return this.incoming.size;
	}

	/** Bytes from the peer (any chunking). */
	receive(chunk: Uint8Array): void {
		this.decoder.push(chunk);
	}

	/** The peer's output ended: a last line without LF is still delivered. */
	endOfInput(): void {
		this.decoder.end();
	}

	/**
	 * Sends a request and resolves with zero's result once it validates against `schema` (zero's
	 * own object is returned, so unknown keys survive). Rejects with a typed error, never hangs
	 * past {@link close}.
	 */
	request<S extends z.ZodType>(
		method: string,
		params: unknown,
		schema: S,
		options: RequestOptions = {},
	): Promise<z.infer<S>> {
		if (this.closedReason !== undefined) {
			return Promise.reject(new AcpConnectionClosedError(method, this.closedReason));
		}
		const id = this.nextId++;
		return new Promise<z.infer<S>>((resolve, reject) => {
			const entry: Pending = {
				method,
				resolve: (result, line) => {
					const parsed = safeParseUntrusted(schema, result);
					if (parsed.success) {
						resolve(result as z.infer<S>);
					} else {
						reject(
							new AcpInvalidResultError(method, describeIssues(parsed.error), excerptOf(line)),
						);
					}
				},
				reject,
			};
			if (options.timeoutMs !== undefined) {
				entry.timer = setTimeout(() => {
					this.pending.delete(id);
					reject(new AcpTimeoutError(method, options.timeoutMs ?? 0));
				}, options.timeoutMs);
			}
			this.pending.set(id, entry);
			this.send({ jsonrpc: '2.0', id, method, params });
		});
	}

	/** Sends a notification (no answer). Ignored once closed. */
	notify(method: string, params: unknown): void {
		if (this.closedReason === undefined) {
			this.send({ jsonrpc: '2.0', method, params });
		}
	}

	/** Rejects every pending request with `reason` and stops writing. Idempotent. */
	close(reason: string): void {
		if (this.closedReason !== undefined) {
			return;
		}
		this.closedReason = reason;
		this.incoming.clear();
		const pending = [...this.pending.values()];
		this.pending.clear();
		for (const entry of pending) {
			if (entry.timer) {
				clearTimeout(entry.timer);
			}
			entry.reject(new AcpConnectionClosedError(entry.method, reason));
		}
	}

	private send(message: Record<string, unknown>): void {
		const line = JSON.stringify(message);
		this.options.onTrace?.('out', line);
		this.options.write(`${line}\n`);
	}

	private diagnostic(
		code: ProtocolDiagnostic['code'],
		message: string,
		line: string,
		extra: Partial<AcpDiagnostic> = {},
	): void {
		this.options.onDiagnostic({ code, message, excerpt: excerptOf(line), ...extra });
	}

	private handleLine(line: string): void {
		this.options.onTrace?.('in', line);
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (error) {
			this.diagnostic('invalid_json', `Not JSON: ${(error as Error).message}`, line);
			return;
		}
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			this.diagnostic('not_an_object', 'A JSON-RPC message must be a JSON object.', line);
			return;
		}
		// A model's tool arguments can nest thousands deep; nothing past the cap reaches the chat.
		capNesting(value, line, MAX_ACP_DEPTH_MARKER);
		const message = value as Record<string, unknown>;
		if (message.jsonrpc !== '2.0') {
			this.diagnostic(
				'invalid_event',
				'The message is not JSON-RPC 2.0 ("jsonrpc" is not "2.0").',
				line,
			);
			return;
		}
		const { id, method } = message;
		const hasId = id !== undefined;
		if (typeof method === 'string') {
			if (!hasId) {
				this.options.onNotification(method, message.params, line);
			} else if (typeof id === 'number' || typeof id === 'string') {
				this.handleRequest(rawMemberText(line, 'id'), method, message.params, line);
			} else {
				this.diagnostic('invalid_event', `A "${method}" request has an invalid id.`, line, {
					method,
				});
			}
			return;
		}
		if (hasId && ('result' in message || 'error' in message)) {
			this.handleResponse(id, message, line);
			return;
		}
		this.diagnostic(
			'invalid_event',
			'The message is neither a request, a response nor a notification.',
			line,
		);
	}

	private handleResponse(id: unknown, message: Record<string, unknown>, line: string): void {
		const entry = typeof id === 'number' ? this.pending.get(id) : undefined;
		if (!entry) {
			const error = safeParseUntrusted(JsonRpcErrorSchema, message.error);
			this.diagnostic(
				'invalid_event',
				id === null && error.success
					? `zero could not read a line this client sent: ${error.data.message} (JSON-RPC error ${error.data.code}).`
					: `A response for id ${JSON.stringify(id)}, which no request of this client is waiting for.`,
				line,
			);
			return;
		}
		this.pending.delete(id as number);
		if (entry.timer) {
			clearTimeout(entry.timer);
		}
		if ('error' in message && message.error !== undefined && message.error !== null) {
			const error = safeParseUntrusted(JsonRpcErrorSchema, message.error);
			entry.reject(
				error.success
					? new AcpRequestError(entry.method, error.data.code, error.data.message, error.data.data)
					: new AcpInvalidResultError(entry.method, 'malformed error object', excerptOf(line)),
			);
			return;
		}
		entry.resolve(message.result, line);
	}

	private handleRequest(
		id: WireId | undefined,
		method: string,
		params: unknown,
		line: string,
	): void {
		if (id === undefined || !isEchoableWireId(id)) {
			// Only an id over the length cap gets here in practice (the line was valid JSON).
			this.diagnostic(
				'invalid_event',
				`A "${method}" request has an id this client cannot echo (longer than ${MAX_WIRE_ID_CHARS} characters); it was refused.`,
				line,
				{ method },
			);
			this.sendRaw(`{"jsonrpc":"2.0","id":null,"error":${JSON.stringify(tooLongIdError)}}`);
			return;
		}
		if (this.incoming.has(id)) {
			// JSON-RPC ids are unique among open requests; a second one would be settled by the
			// answer meant for the first. Refused (zero reads an error as a deny); the first stays.
			this.diagnostic(
				'invalid_event',
				`A second "${method}" request with the id ${id}, while the first still waits for its answer, was refused.`,
				line,
				{ method },
			);
			this.reply(id, {
				error: {
					code: JSON_RPC_ERROR_CODES.invalidRequest,
					message: `request id ${id} is already in use by a request waiting for its answer`,
				},
			});
			return;
		}
		this.incoming.add(id);
		let reply: Promise<IncomingRequestReply>;
		try {
			reply = this.options.onRequest(method, params, id, line);
		} catch (error) {
			reply = Promise.reject(error);
		}
		reply
			.catch((error: unknown): IncomingRequestReply => ({
				error: {
					code: JSON_RPC_ERROR_CODES.internalError,
					message: error instanceof Error ? error.message : String(error),
				},
			}))
			.then((answer) => {
				if (this.closedReason === undefined && this.incoming.delete(id)) {
					this.reply(id, answer);
				}
			});
	}

	/**
	 * zero drops a reply whose id is not the one it sent, so the id goes back as the exact text it
	 * came as (checked by `isEchoableWireId`: one JSON number or string, nothing else).
	 */
	private reply(id: WireId, answer: IncomingRequestReply): void {
		const body =
			'error' in answer
				? `"error":${JSON.stringify(answer.error)}`
				: `"result":${JSON.stringify(answer.result ?? null)}`;
		this.sendRaw(`{"jsonrpc":"2.0","id":${id},${body}}`);
	}

	private sendRaw(line: string): void {
		this.options.onTrace?.('out', line);
		this.options.write(`${line}\n`);
	}

	private handleOversize(bytes: number, excerpt: string): void {
		const limit = `${(bytes / MIB).toFixed(1)} MiB line from zero was over the ${(this.maxLineBytes / MIB).toFixed(0)} MiB limit and was skipped`;
		const { id, wireId, method, sessionId } = salvageEnvelope(excerpt);
		this.options.onTrace?.('in', `${excerpt}\u2026 (${bytes} bytes, skipped)`);
		if (wireId !== undefined && method !== undefined) {
			this.options.onDiagnostic({
				code: 'line_too_long',
				message: `A ${limit}: zero's "${method}" request was answered with an error (zero treats that as a refusal).`,
				excerpt,
				bytes,
				sessionId,
				method,
			});
			if (this.closedReason === undefined && isEchoableWireId(wireId)) {
				this.reply(wireId, {
					error: {
						code: JSON_RPC_ERROR_CODES.internalError,
						message: `request of ${bytes} bytes is over this client's line limit`,
					},
				});
			}
			return;
		}
		if (typeof id === 'number' && this.pending.has(id)) {
			const entry = this.pending.get(id) as Pending;
			this.pending.delete(id);
			if (entry.timer) {
				clearTimeout(entry.timer);
			}
			this.options.onDiagnostic({
				code: 'line_too_long',
				message: `A ${limit}: it was zero's answer to "${entry.method}".`,
				excerpt,
				bytes,
				method: entry.method,
			});
			entry.reject(new AcpLineTooLongError(entry.method, bytes));
			return;
		}
		this.options.onDiagnostic({
			code: 'line_too_long',
			message: `A ${limit}.`,
			excerpt,
			bytes,
			sessionId,
			method,
		});
	}
}
