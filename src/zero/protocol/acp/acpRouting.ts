/**
 * Where what `zero acp` sends goes: `session/update` notifications and `session/request_permission`
 * requests are checked and routed to the session they name; anything else (an unknown update kind
 * or method, a line naming no session of ours) is kept as drift or a diagnostic, never thrown.
 * Pure: the process (src/zero/process/acp/acpProcess.ts) owns the sessions and the observer.
 */
import { excerptOf } from '../parseLine';
import type { AcpSession } from './acpSession';
import type { AcpDiagnostic, IncomingRequestReply, WireId } from './jsonRpc';
import {
	JSON_RPC_ERROR_CODES,
	RequestPermissionParamsSchema,
	SESSION_UPDATE_SCHEMAS,
	SessionNotificationSchema,
	isSessionUpdateKind,
	type SessionUpdate,
} from './schemas';
import { safeParseUntrusted } from '../untrustedParse';

/** What routing needs from the process: its open sessions and its observer. */
export interface AcpRoutes {
	session(sessionId: string): AcpSession | undefined;
	/** A diagnostic about a line that names no session of ours. */
	diagnostic?(diagnostic: AcpDiagnostic): void;
	/** A notification for no session of ours (kept as drift). */
	unrecognized?(type: string, excerpt: string): void;
}

/** A diagnostic goes to the session it names, else to the process's observer. */
export function routeDiagnostic(routes: AcpRoutes, diagnostic: AcpDiagnostic): void {
	const session = diagnostic.sessionId ? routes.session(diagnostic.sessionId) : undefined;
	if (session) {
		session.deliver({ kind: 'diagnostic', diagnostic });
	} else {
		routes.diagnostic?.(diagnostic);
	}
}

function sessionIdOf(params: unknown): string | undefined {
	const sessionId =
		typeof params === 'object' && params !== null
			? (params as { sessionId?: unknown }).sessionId
			: undefined;
	return typeof sessionId === 'string' ? sessionId : undefined;
}

export function routeNotification(
	routes: AcpRoutes,
	method: string,
	params: unknown,
	line: string,
): void {
	if (method !== 'session/update') {
		// Unknown notifications are kept as drift, on the session they name if any.
		const sessionId = sessionIdOf(params);
		const session = sessionId === undefined ? undefined : routes.session(sessionId);
		if (session) {
			session.deliver({ kind: 'unrecognized', type: method, excerpt: excerptOf(line) });
		} else {
			routes.unrecognized?.(method, excerptOf(line));
		}
		return;
	}
	const envelope = safeParseUntrusted(SessionNotificationSchema, params);
	if (!envelope.success) {
		routeDiagnostic(routes, {
			code: 'invalid_event',
			message: `Invalid "session/update": ${envelope.error.issues[0]?.message ?? 'bad envelope'}`,
			excerpt: excerptOf(line),
			method,
		});
		return;
	}
	const { sessionId, update } = envelope.data;
	const session = routes.session(sessionId);
	const kind = update.sessionUpdate;
	if (!session) {
		routes.diagnostic?.({
			code: 'invalid_event',
			message: `A "${kind}" update for session ${sessionId}, which no chat has open.`,
			excerpt: excerptOf(line),
			sessionId,
			method,
		});
		return;
	}
	if (!isSessionUpdateKind(kind)) {
		session.deliver({
			kind: 'unrecognized',
			type: `session/update:${kind}`,
			excerpt: excerptOf(line),
		});
		return;
	}
	// Validate, then keep zero's own object (params are freshly parsed JSON, so extra keys survive).
	const rawUpdate = (params as { update: unknown }).update;
	const checked = safeParseUntrusted(SESSION_UPDATE_SCHEMAS[kind], rawUpdate);
	if (!checked.success) {
		session.deliver({
			kind: 'diagnostic',
			diagnostic: {
				code: 'invalid_event',
				message: `Invalid "${kind}" update: ${checked.error.issues
					.slice(0, 3)
					.map((issue) => `${issue.path.join('.') || '(update)'}: ${issue.message}`)
					.join('; ')}`,
				excerpt: excerptOf(line),
				sessionId,
				method,
			},
		});
		return;
	}
	session.deliver({ kind: 'update', update: rawUpdate as SessionUpdate });
}

/** Answers a request zero sent; only permission requests are offered, and they fail closed. */
export async function answerRequest(
	routes: AcpRoutes,
	method: string,
	params: unknown,
	requestId: WireId,
	line: string,
): Promise<IncomingRequestReply> {
	if (method !== 'session/request_permission') {
		routeDiagnostic(routes, {
			code: 'invalid_event',
			message: `zero asked for "${method}", which this client does not offer; it was answered "method not found".`,
			excerpt: excerptOf(line),
			method,
		});
		return {
			error: {
				code: JSON_RPC_ERROR_CODES.methodNotFound,
				message: `method not found: ${method}`,
			},
		};
	}
	const parsed = safeParseUntrusted(RequestPermissionParamsSchema, params);
	if (!parsed.success) {
		// Fail closed: zero treats an error reply as a deny and the turn continues.
		routeDiagnostic(routes, {
			code: 'invalid_event',
			message: `A permission request this client could not read was refused: ${parsed.error.issues[0]?.message ?? 'bad params'}`,
			excerpt: excerptOf(line),
			method,
			sessionId: sessionIdOf(params),
		});
		return {
			error: { code: JSON_RPC_ERROR_CODES.invalidParams, message: 'invalid permission request' },
		};
	}
	const session = routes.session(parsed.data.sessionId);
	if (!session) {
		routes.diagnostic?.({
			code: 'invalid_event',
			message: `A permission request for session ${parsed.data.sessionId}, which no chat has open, was refused.`,
			excerpt: excerptOf(line),
			sessionId: parsed.data.sessionId,
			method,
		});
		return { error: { code: JSON_RPC_ERROR_CODES.invalidParams, message: 'unknown session' } };
	}
	const outcome = await session.requestPermission(requestId, params as typeof parsed.data);
	if (!outcome) {
		throw new Error('the process ended');
	}
	return { result: { outcome } };
}
