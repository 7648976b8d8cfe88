/**
 * `zero sessions list [--kind fork] | lineage | tree | children` as exact argv and typed answers.
 *
 * zero v0.8.0 (`internal/cli/sessions.go`, `internal/sessions/lineage.go`; recorded under
 * `test/fixtures/recorded/shaping/cli`): every answer is pretty JSON on stdout with exit 0 and
 * every snapshot field present ("" and 0 when unset). A fork (`exec --fork`) has kind `fork`, its
 * parent in `parentSessionId`, and `forkedFromSequence`/`forkedFromEventId` naming the parent's
 * LAST event (zero forks from nothing else). `lineage` follows `parentSessionId`, so it shows
 * forks; `children` and `tree` list only sessions of kind `child` (sub-agents): a fork is never
 * in them. An unknown id is exit 2, `[zero] Zero session not found: <id>`.
 */
import { z } from 'zod';
import type { CliResult } from './cliResult';
import { isValidSessionId } from './checkpointSchemas';
import {
	SessionSummarySchema,
	readCliJson,
	tolerantList,
	type CliAnswer,
	type SessionSummary,
} from './cliAnswers';

/** The kinds `zero sessions list --kind` accepts. */
export const SESSION_KINDS = ['fork', 'child', 'side', 'spec-draft', 'spec-impl'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

function sessionId(id: string): string {
	if (!isValidSessionId(id)) {
		throw new RangeError(`"${id.slice(0, 80)}" is not a zero session id`);
	}
	// A valid id starts with a letter or digit, so it is never read as a flag.
	return id;
}

export function sessionsListArgs(kind?: SessionKind): string[] {
	return ['sessions', 'list', ...(kind ? [`--kind=${kind}`] : []), '--json'];
}

export function lineageArgs(id: string): string[] {
	return ['sessions', 'lineage', sessionId(id), '--json'];
}

export function childrenArgs(id: string): string[] {
	return ['sessions', 'children', sessionId(id), '--json'];
}

export function treeArgs(id: string): string[] {
	return ['sessions', 'tree', sessionId(id), '--json'];
}

/** `lineage` (root first), `children` and `list`: arrays of session snapshots. */
export const SessionSnapshotsSchema = tolerantList(SessionSummarySchema);
export type SessionSnapshots = z.infer<typeof SessionSnapshotsSchema>;

export interface SessionTreeNode {
	session: SessionSummary;
	children: SessionTreeNode[];
}

/** Deepest tree read; zero refuses cycles, but a hostile store could nest without end. */
const MAX_TREE_DEPTH = 64;

const TreeNodeShape = z.looseObject({
	session: SessionSummarySchema,
	children: z.array(z.unknown()).nullish(),
});

function readTree(value: unknown, depth: number): SessionTreeNode | undefined {
	const parsed = TreeNodeShape.safeParse(value);
	if (!parsed.success || depth > MAX_TREE_DEPTH) {
		return undefined;
	}
	const children: SessionTreeNode[] = [];
	for (const child of parsed.data.children ?? []) {
		const node = readTree(child, depth + 1);
		if (node) {
			children.push(node);
		}
	}
	return { session: parsed.data.session, children };
}

/** `zero sessions tree <id> --json`: `{session, children?}`, children only of kind `child`. */
export const SessionTreeSchema = z.unknown().transform((value, context) => {
	const node = readTree(value, 0);
	if (!node) {
		context.addIssue({ code: 'custom', message: 'not a session tree' });
		return z.NEVER;
	}
	return node;
});

export function readSessionSnapshots(
	result: CliResult,
	command: string,
): CliAnswer<SessionSnapshots> {
	return readCliJson(result, SessionSnapshotsSchema, command);
}

export function readSessionTree(result: CliResult): CliAnswer<SessionTreeNode> {
	return readCliJson(result, SessionTreeSchema, 'zero sessions tree --json');
}

/** Where a fork came from, or undefined for a session that is not a fork of another. */
export interface ForkOrigin {
	parentSessionId: string;
	rootSessionId: string;
	/** The parent's last event when zero forked (0 when zero did not say). */
	forkedFromSequence: number;
}

export function forkOrigin(session: SessionSummary): ForkOrigin | undefined {
	const parent = session.parentSessionId ?? '';
	if (session.kind !== 'fork' || !isValidSessionId(parent)) {
		return undefined;
	}
	const root = session.rootSessionId ?? '';
	return {
		parentSessionId: parent,
		rootSessionId: isValidSessionId(root) ? root : parent,
		forkedFromSequence:
			Number.isSafeInteger(session.forkedFromSequence) && (session.forkedFromSequence ?? 0) > 0
				? (session.forkedFromSequence as number)
				: 0,
	};
}

/** The forks of `parentId` in a `sessions list` answer (zero's order: newest first). */
export function forksOf(sessions: readonly SessionSummary[], parentId: string): SessionSummary[] {
	return sessions.filter((session) => forkOrigin(session)?.parentSessionId === parentId);
}
