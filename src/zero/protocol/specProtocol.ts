/**
 * zero v0.8.0's spec review (issue #25), as the recorded binary shows it
 * (test/fixtures/recorded/spec/, docs/spec-review.md):
 *
 *   - `zero exec --use-spec` drafts a spec in the read-only `spec-draft` mode; the model's
 *     `submit_spec {title, plan}` writes `<workspace>/.zero/specs/<yyyy-mm-dd>-<slug>.md` and ends
 *     the run: `final.meta` carries `stopReason: spec_review_required`, `status: draft`, `specId`,
 *     `specTitle`, `specFilePath`, `relativePath`, `draftSessionId`; `run_end.status` is
 *     `spec_review_required`, exit 0. A draft without `submit_spec` ends in a `provider_error`.
 *   - `zero spec show|approve|reject <spec id|draft session> --json` answer with JSON. Approve
 *     creates a `spec-impl` session whose one event is zero's implementation prompt (the spec file as
 *     it is at approve time, `User note: <comment>`); zero's own `next` hint (`exec --resume <impl>`)
 *     is refused by zero itself ("Zero session is not resumable"), so the implementation runs as a
 *     new session whose message is that stored prompt.
 *   - The reject reason is not in `spec show --json`; `sessions list --json` carries it.
 *
 * Pure parsing and argv building: no Node built-ins, no process. Everything a model wrote (titles,
 * spec text, ids) is bounded here; where a field decides a path or a command it is validated.
 */
import { z } from 'zod';
import { jsonLineValues, MALFORMED_LINE } from './jsonLines';
import { buildExecArgs, headlessExecArgs, SESSION_ID_PATTERN, type ExecOptions } from './execArgs';

export const SPEC_REVIEW_REQUIRED = 'spec_review_required';
export const SPEC_STATUSES = ['draft', 'approved', 'rejected'] as const;
export type SpecStatus = (typeof SPEC_STATUSES)[number];

/** zero's spec-file directory, relative to the workspace (`internal/specmode/spec.go`). */
export const SPEC_DIR = '.zero/specs';
/** The longest spec text kept from one answer; the rest is cut and flagged. */
export const MAX_SPEC_CONTENT = 256 * 1024;
const MAX_TITLE = 200;
const MAX_PATH = 4096;
const MAX_LINE = 2000;
/** The longest approval comment or reject reason passed to zero (it goes on the command line). */
export const MAX_NOTE = 8000;

/**
 * A spec id or draft session id as a command-line target: zero's session id pattern, which its spec
 * ids (`2026-12-02-add-farewell-helper`, slug of [a-z0-9-], at most 60 + a suffix) also match.
 */
export const SPEC_TARGET_PATTERN = SESSION_ID_PATTERN;
/** `relativePath` as zero writes it: `.zero/specs/<id>.md`, nothing else. */
const RELATIVE_SPEC_PATH = /^\.zero\/specs\/[a-z0-9][a-z0-9-]{0,127}\.md$/;

// C0/C1 controls (but tab and newline) and the bidi overrides that could disguise a title.
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** One line of display text: hidden characters removed, whitespace folded, bounded. */
export function inertLine(text: string, max = MAX_LINE): string {
	const folded = text.replace(HIDDEN, '').replace(/\s+/g, ' ').trim();
	return folded.length > max ? `${folded.slice(0, max - 1)}\u2026` : folded;
}

const specTarget = z.string().regex(SPEC_TARGET_PATTERN);
const specStatus = z.string() as z.ZodType<SpecStatus | (string & {})>;
// Length limits as refinements, not .min/.max: zod's length checks also run on a non-string
// whose `length` is an object, and coercing that object can throw out of safeParse.
const absolutePath = z
	.string()
	.refine(
		(value) => value.length > 0 && value.length <= MAX_PATH && !value.includes('\u0000'),
		'not a path',
	);

/** The `final.meta` of a spec-draft run (stream-json). */
const SpecDraftMetaSchema = z.looseObject({
	stopReason: z.literal(SPEC_REVIEW_REQUIRED),
	status: specStatus.optional(),
	specId: specTarget,
	specTitle: z.string().optional(),
	specFilePath: absolutePath,
	relativePath: z.string().regex(RELATIVE_SPEC_PATH),
	draftSessionId: specTarget,
});

export interface SpecDraft {
	specId: string;
	/** Display text (the model's title, made inert); the id when zero gave none. */
	title: string;
	/** Absolute, as zero reports it; the host checks it is inside the workspace before opening it. */
	specFilePath: string;
	/** `.zero/specs/<id>.md`. */
	relativePath: string;
	draftSessionId: string;
}

/**
 * The spec a `--use-spec` run drafted, from its `final` event's `meta`; undefined for any other
 * final (an ordinary answer) or a meta that does not hold together (an id that is not zero's, a
 * relative path outside `.zero/specs/`, a relative path that is not `<specId>.md`).
 */
export function specDraftFromFinal(meta: unknown): SpecDraft | undefined {
	const parsed = SpecDraftMetaSchema.safeParse(meta);
	if (!parsed.success || parsed.data.relativePath !== `${SPEC_DIR}/${parsed.data.specId}.md`) {
		return undefined;
	}
	const { specId, specTitle, specFilePath, relativePath, draftSessionId } = parsed.data;
	return {
		specId,
		title: inertLine(specTitle ?? '', MAX_TITLE) || specId,
		specFilePath,
		relativePath,
		draftSessionId,
	};
}

/** Whether a `run_end` status is the spec-review stop (exit 0, not an error, not an answer). */
export function isSpecReviewStop(status: string | undefined): boolean {
	return status === SPEC_REVIEW_REQUIRED;
}

/** `zero spec show <id> --json`. */
export const SpecShowSchema = z
	.looseObject({
		specId: specTarget,
		specFilePath: absolutePath,
		draftSessionId: specTarget,
		specStatus,
		content: z.string(),
	})
	.transform(({ content, ...rest }) => ({
		...rest,
		content: content.length > MAX_SPEC_CONTENT ? content.slice(0, MAX_SPEC_CONTENT) : content,
		contentTruncated: content.length > MAX_SPEC_CONTENT,
	}));
export type SpecShow = z.infer<typeof SpecShowSchema>;

/**
 * `zero spec approve|reject <id> --json`. zero prints `implementationSessionId: ""` on a reject;
 * it becomes undefined here, so a present id always names a session.
 */
export const SpecDecisionSchema = z
	.looseObject({
		status: specStatus,
		specId: specTarget,
		specFilePath: absolutePath.optional(),
		draftSessionId: specTarget,
		implementationSessionId: z.union([specTarget, z.literal('')]).optional(),
		message: z.string().optional(),
		next: z.string().optional(),
	})
	.transform(({ implementationSessionId, message, next, ...rest }) => ({
		...rest,
		implementationSessionId: implementationSessionId || undefined,
		message: message === undefined ? undefined : inertLine(message),
		next: next === undefined ? undefined : inertLine(next),
	}));
export type SpecDecision = z.infer<typeof SpecDecisionSchema>;

/** The spec fields of one `zero sessions list --json` entry (where the reject reason lives). */
export const SpecSessionSchema = z
	.looseObject({
		sessionId: specTarget,
		kind: z.string().optional(),
		specId: z.string().optional(),
		specStatus: specStatus.optional(),
		specUserComment: z.string().optional(),
		specRejectReason: z.string().optional(),
		specImplSessionId: z.string().optional(),
		specSourceSessionId: z.string().optional(),
	})
	.transform((entry) => ({
		sessionId: entry.sessionId,
		kind: entry.kind ?? '',
		specId: entry.specId || undefined,
		specStatus: entry.specStatus || undefined,
		comment: entry.specUserComment ? inertLine(entry.specUserComment) : undefined,
		rejectReason: entry.specRejectReason ? inertLine(entry.specRejectReason) : undefined,
		implementationSessionId:
			entry.specImplSessionId && SPEC_TARGET_PATTERN.test(entry.specImplSessionId)
				? entry.specImplSessionId
				: undefined,
	}));
export type SpecSession = z.infer<typeof SpecSessionSchema>;

/** The draft session's spec facts in a `sessions list --json` answer; undefined when absent. */
export function specSessionIn(list: unknown, draftSessionId: string): SpecSession | undefined {
	if (!Array.isArray(list)) {
		return undefined;
	}
	for (const item of list) {
		const parsed = SpecSessionSchema.safeParse(item);
		if (parsed.success && parsed.data.sessionId === draftSessionId) {
			return parsed.data;
		}
	}
	return undefined;
}

/** zero's implementation prompt starts so (`specmode.ImplementationPrompt`). */
export const IMPLEMENTATION_PROMPT_START = 'Implement the following approved spec:';

const StoredMessageSchema = z.looseObject({
	type: z.literal('message'),
	payload: z.looseObject({ role: z.literal('user'), content: z.string() }),
});

/**
 * zero's implementation prompt from the `spec-impl` session's stored events (its
 * `events.jsonl`, one JSON object a line): the first user message, if it is one. It is sent
 * verbatim as the implementation run's message, so it is bounded but not otherwise changed.
 */
export function implementationPromptFromEvents(eventsJsonl: string): string | undefined {
	for (const value of jsonLineValues(eventsJsonl)) {
		if (value === MALFORMED_LINE) {
			return undefined;
		}
		const parsed = StoredMessageSchema.safeParse(value);
		if (!parsed.success) {
			continue;
		}
		const prompt = parsed.data.payload.content;
		return prompt.startsWith(IMPLEMENTATION_PROMPT_START) &&
			prompt.length <= MAX_SPEC_CONTENT + 64 * 1024
			? prompt
			: undefined;
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------
// Command lines

export const SPEC_REASONING_EFFORTS = ['low', 'medium', 'high'] as const;

export interface SpecDraftOptions {
	cwd: string;
	/** `--init-session-id`: the draft session (the chat knows it before zero answers). */
	sessionId: string;
	/** `--spec-model`: the model that drafts (zero uses `--model` or its default otherwise). */
	specModel?: string;
	/** `--spec-reasoning-effort`: zero v0.8.0 knows `low`, `medium` and `high` only. */
	specReasoningEffort?: (typeof SPEC_REASONING_EFFORTS)[number];
	/** `--model` for the run (the draft uses it unless `specModel` is set). */
	model?: string;
	maxTurns?: number;
	addDirs?: readonly string[];
	extraArgs?: readonly string[];
}

function checkTarget(value: string, what: string): void {
	if (!SPEC_TARGET_PATTERN.test(value)) {
		throw new Error(`Invalid ${what}: ${JSON.stringify(value.slice(0, 80))}`);
	}
}

/**
 * `zero exec --use-spec` with the extension's stream-json flags. zero refuses `--use-spec` with
 * `--resume`, `--fork`, `--plan`/`--permission-mode=plan` and `--no-completion-gate` (all exit 2),
 * forces the `spec-draft` permission mode itself, and refuses `--trace` for a draft, so none of
 * those are passed. A spec draft is always a NEW session.
 */
export function buildSpecDraftArgs(options: SpecDraftOptions): string[] {
	checkTarget(options.sessionId, 'zero session id');
	const args = [
		...headlessExecArgs(options.cwd),
		'--use-spec',
		`--init-session-id=${options.sessionId}`,
	];
	if (options.model) {
		args.push(`--model=${options.model}`);
	}
	if (options.specModel) {
		args.push(`--spec-model=${options.specModel}`);
	}
	if (options.specReasoningEffort) {
		// The glued form skips zero's own check of the value, so check it here.
		if (!SPEC_REASONING_EFFORTS.includes(options.specReasoningEffort)) {
			throw new Error(`Invalid reasoning effort: ${JSON.stringify(options.specReasoningEffort)}`);
		}
		args.push(`--spec-reasoning-effort=${options.specReasoningEffort}`);
	}
	if (options.maxTurns !== undefined) {
		args.push(`--max-turns=${options.maxTurns}`);
	}
	for (const dir of options.addDirs ?? []) {
		args.push(`--add-dir=${dir}`);
	}
	args.push(...(options.extraArgs ?? []));
	return args;
}

export type SpecReviewAction =
	| { kind: 'show'; target: string }
	| { kind: 'approve'; target: string; comment?: string }
	| { kind: 'reject'; target: string; reason?: string };

/**
 * `zero spec show|approve|reject <target> --json [--comment=...|--reason=...]`. The value is glued
 * to its flag so a comment starting with `-` is never read as a flag; an empty one is left out
 * (zero refuses `--comment=` with no value).
 */
export function buildSpecReviewArgs(action: SpecReviewAction): string[] {
	checkTarget(action.target, 'spec id');
	const note =
		action.kind === 'approve' ? action.comment : action.kind === 'reject' ? action.reason : '';
	if ((note ?? '').length > MAX_NOTE) {
		throw new Error(
			`The ${action.kind === 'approve' ? 'comment' : 'reason'} is too long (at most ${MAX_NOTE} characters).`,
		);
	}
	const args = ['spec', action.kind, action.target, '--json'];
	if (action.kind === 'approve' && action.comment?.trim()) {
		args.push(`--comment=${action.comment.trim()}`);
	}
	if (action.kind === 'reject' && action.reason?.trim()) {
		args.push(`--reason=${action.reason.trim()}`);
	}
	return args;
}

/** `zero sessions list --kind spec-draft --json`: every draft with its status and reject reason. */
export function buildSpecDraftListArgs(): string[] {
	return ['sessions', 'list', '--kind', 'spec-draft', '--json'];
}

/**
 * The implementation run after `spec approve`: a NEW exec session (zero refuses `--resume` of its
 * `spec-impl` session, and `--fork` of it folds the prompt into a 500-byte context line), whose
 * message is {@link implementationPromptFromEvents} of the `spec-impl` session.
 */
export function buildImplementationArgs(
	options: Omit<ExecOptions, 'session'>,
	sessionId: string,
): string[] {
	return buildExecArgs({ ...options, session: { kind: 'new', id: sessionId } });
}
