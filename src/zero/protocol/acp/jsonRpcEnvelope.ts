/** Reading what is left of a JSON-RPC line the connection could not take whole. */
import type { z } from 'zod';
import { JSON_RPC_ERROR_CODES, type JsonRpcError } from './schemas';
import { MAX_WIRE_ID_CHARS, type WireId } from './wireId';

/**
 * The head of a line that was too long to parse, read best-effort: zero marshals `jsonrpc`, `id`,
 * `method`, then `params` (whose first field is `sessionId`), so the start of the line says which
 * request, response or session it belonged to. That lets a skipped request still get an answer
 * (zero would otherwise wait for it forever) and a skipped response fail its caller.
 */
export function salvageEnvelope(excerpt: string): {
	id?: number | string;
	/** The id's JSON text, to echo exactly. */
	wireId?: WireId;
	method?: string;
	sessionId?: string;
} {
	const match =
		/^\s*\{"jsonrpc":"2\.0"(?:,"id":(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"))?(?:,"method":"((?:[^"\\]|\\.)*)")?(?:,"params":\{"sessionId":"((?:[^"\\]|\\.)*)")?/.exec(
			excerpt,
		);
	if (!match) {
		return {};
	}
	const [, rawId, method, sessionId] = match;
	let id: number | string | undefined;
	if (rawId !== undefined) {
		id = rawId.startsWith('"') ? (JSON.parse(rawId) as string) : Number(rawId);
	}
	return rawId === undefined ? { method, sessionId } : { id, wireId: rawId, method, sessionId };
}

export const tooLongIdError: JsonRpcError = {
	code: JSON_RPC_ERROR_CODES.invalidRequest,
	message: `request id longer than ${MAX_WIRE_ID_CHARS} characters`,
};

export function describeIssues(error: z.ZodError): string {
	return error.issues
		.slice(0, 3)
		.map((issue) => `${issue.path.join('.') || '(value)'}: ${issue.message}`)
		.join('; ');
}
