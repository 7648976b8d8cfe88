/**
 * What each review action on a spec card does (issue #25), for the card's buttons and the spec
 * editor's title bar alike:
 *   - Approve (optional comment): `zero spec approve --comment`, then the implementation turn in the
 *     same chat, whose message is the prompt zero stored on approval (a NEW session: zero refuses
 *     `exec --resume` of its spec-impl session, docs/spec-review.md);
 *   - Request changes (the changes): a new draft turn carrying them (zero has no "revise" command);
 *   - Reject (optional reason): `zero spec reject --reason`; the card shows the reason zero keeps
 *     (in `sessions list`, not in `spec show`).
 * No vscode: the chat, zero's CLI and the user's answers come in as {@link SpecFlowDeps}.
 */
import { findTurn } from '../../shared/transcript';
import type { SpecCard } from '../../shared/specSchema';
import type { Turn } from '../../shared/transcriptSchema';
import { MAX_NOTE } from '../../zero/protocol/specProtocol';
import type { ChatSession } from '../chat/chatSession';
import type { SpecReview } from '../spec/specReview';
import { specRedraftMessage } from '../spec/specPrompts';

export type SpecDecisionKind = 'approve' | 'request-changes' | 'reject';

export interface SpecFlowDeps {
	review(): SpecReview;
	/** The user's note for `kind`; undefined when they cancelled. `required`: an empty one is refused. */
	askNote(kind: SpecDecisionKind, spec: SpecCard, required: boolean): Promise<string | undefined>;
	/** Saves unsaved edits of the spec file (zero reads the file on disk). */
	saveSpecFile(spec: SpecCard): Promise<void>;
	show(level: 'info' | 'warning' | 'error', message: string): void;
	now(): number;
}

/** Why a turn's spec cannot be acted on now, or undefined when it can. */
export function specActionRefusal(
	chat: Pick<ChatSession, 'busy' | 'transcript'>,
	turn: Turn | undefined,
): string | undefined {
	if (chat.transcript.readOnly) {
		return 'This transcript is read-only.';
	}
	if (!turn?.spec) {
		return 'That spec is not in this chat any more.';
	}
	if (turn.spec.state !== 'draft') {
		return `The spec "${turn.spec.title}" was already ${stateWords(turn.spec)}.`;
	}
	if (chat.busy) {
		return 'zero is running in this chat: wait for the run to finish (or stop it), then review the spec.';
	}
	return undefined;
}

function stateWords(spec: SpecCard): string {
	switch (spec.state) {
		case 'approved':
			return 'approved';
		case 'rejected':
			return 'rejected';
		case 'changes-requested':
			return 'sent back for changes';
		default:
			return 'left as a draft';
	}
}

/** One review action on the spec of `turnId`; `note` given skips asking for it. */
export async function runSpecDecision(
	chat: ChatSession,
	turnId: string,
	kind: SpecDecisionKind,
	deps: SpecFlowDeps,
	note?: string,
): Promise<boolean> {
	const turn = findTurn(chat.transcript, turnId);
	const refusal = specActionRefusal(chat, turn);
	if (refusal || !turn?.spec) {
		deps.show('warning', refusal ?? 'No spec.');
		return false;
	}
	const spec = turn.spec;
	const asked = note ?? (await deps.askNote(kind, spec, kind === 'request-changes'));
	if (asked === undefined) {
		return false;
	}
	const text = asked.trim().slice(0, MAX_NOTE);
	if (kind === 'request-changes' && text === '') {
		deps.show('warning', 'Say what to change: the next draft is made from it.');
		return false;
	}
	// The chat may have started something while the user typed.
	const again = specActionRefusal(chat, findTurn(chat.transcript, turnId));
	if (again) {
		deps.show('warning', again);
		return false;
	}
	const review = deps.review();
	switch (kind) {
		case 'approve': {
			await deps.saveSpecFile(spec);
			const approved = await review.approve(spec.specId, text || undefined);
			if (!approved.ok) {
				deps.show('error', `The spec was not approved: ${approved.problem}`);
				return false;
			}
			// The spec is decided: the next message is an ordinary one, not another draft.
			chat.setPlanFirst(false);
			const nextTurnId = chat.startTurn({
				kind: 'spec-impl',
				message: approved.value.implementationPrompt,
				displayText: `Implement the approved spec "${spec.title}"${text ? `\nComment: ${text}` : ''}`,
				context: [],
				images: [],
				permissionMode: chat.permissionMode,
				addDirs: [...chat.addDirs],
				specLink: linkTo(turnId, spec, 'implements'),
			});
			chat.apply({
				type: 'spec/review',
				turnId,
				at: deps.now(),
				state: 'approved',
				note: text || undefined,
				implementationSessionId: approved.value.decision.implementationSessionId,
				nextTurnId,
			});
			return true;
		}
		case 'reject': {
			const rejected = await review.reject(spec.specId, text || undefined);
			if (!rejected.ok) {
				deps.show('error', `The spec was not rejected: ${rejected.problem}`);
				return false;
			}
			// zero keeps the reason on the draft session (not in `spec show`): show what it kept.
			const status = await review.draftStatus(spec.draftSessionId);
			chat.apply({
				type: 'spec/review',
				turnId,
				at: deps.now(),
				state: 'rejected',
				note: (status.ok ? status.value.rejectReason : undefined) ?? (text || undefined),
			});
			return true;
		}
		case 'request-changes': {
			await deps.saveSpecFile(spec);
			const shown = await review.show(spec.specId);
			const nextTurnId = chat.startTurn({
				kind: 'spec-draft',
				message: specRedraftMessage(
					spec,
					turn.prompt?.text,
					text,
					shown.ok ? shown.value.content : undefined,
				),
				displayText: `Revise the spec "${spec.title}": ${text}`,
				context: [],
				images: [],
				permissionMode: chat.permissionMode,
				addDirs: [...chat.addDirs],
				specLink: linkTo(turnId, spec, 'redrafts'),
			});
			chat.apply({
				type: 'spec/review',
				turnId,
				at: deps.now(),
				state: 'changes-requested',
				note: text,
				nextTurnId,
			});
			return true;
		}
	}
}

function linkTo(turnId: string, spec: SpecCard, kind: 'implements' | 'redrafts') {
	return { kind, turnId, specId: spec.specId, title: spec.title, relativePath: spec.relativePath };
}

/** The chat's turn whose draft spec is the file at `filePath` (the editor's title bar). */
export function turnOfSpecFile(
	chat: Pick<ChatSession, 'transcript'>,
	filePath: string,
): Turn | undefined {
	const turns = chat.transcript.turns;
	for (let i = turns.length - 1; i >= 0; i--) {
		if (turns[i].spec?.specFilePath === filePath) {
			return turns[i];
		}
	}
	return undefined;
}

/** The spec files of the chat still waiting for a decision (the editor title's `when` key). */
export function pendingSpecFiles(chat: Pick<ChatSession, 'transcript'>): string[] {
	return chat.transcript.turns
		.filter((turn) => turn.spec?.state === 'draft')
		.map((turn) => turn.spec?.specFilePath ?? '');
}
