/**
 * A chat's notices: what each turn's tool cards and run say about permissions and limits, the
 * follow-ups offered on them (re-run with a grant, another mode, Continue), and running one.
 */
import { traitsOf } from '../../shared/backendTraits';
import type { ParsedLine } from '../../zero/protocol/parseLine';
import type { ChatPermissionMode } from '../../zero/protocol/permissionModes';
import type { NoticeView, TurnNotices } from '../../shared/notices';
import { findToolItem, findTurn } from '../../shared/transcript';
import type { Transcript, Turn } from '../../shared/transcriptSchema';
import { Emitter } from '../platform/emitter';
import type { TurnRequest } from '../turns/turnBackend';
import { chatMaxTurns } from './chatBackends';
import type { ChatDeps } from './chatDeps';
import { PermissionFollowUps, type ChatRunContext } from '../notices/permissionFollowUps';

/** The stream-json events after which a tool call's notice may change. */
const NOTICE_EVENTS = new Set([
	'permission_request',
	'permission_decision',
	'permission',
	'tool_result',
]);

/** The chat the notices belong to. */
export interface NoticeChat {
	readonly transcript: Transcript;
	readonly model: string;
	readonly addDirs: readonly string[];
	readonly busy: boolean;
	readonly running: boolean;
	permissionMode: ChatPermissionMode;
	setAddDirs(dirs: readonly string[]): void;
	startTurn(request: TurnRequest): void;
}

export class ChatNotices {
	/** The binary the last run used, so offered commands show the real path. */
	binaryForDisplay = 'zero';
	private readonly followUps: PermissionFollowUps;
	private readonly emitter = new Emitter<{ notices: TurnNotices; replace: boolean }>();
	/** A turn's notices changed (all of them when `replace`). */
	readonly onChange = this.emitter.event;

	constructor(
		private readonly deps: ChatDeps,
		private readonly chat: NoticeChat,
	) {
		this.followUps = new PermissionFollowUps(deps);
	}

	/** Every notice of a turn, with the follow-ups offered now. */
	turnNotices(turn: Turn): TurnNotices {
		if (!traitsOf(turn.command?.backend).rerunFollowUps) {
			// zero asked while it waited (live approvals); a re-run would not apply.
			return { turnId: turn.id, items: {}, run: [] };
		}
		return this.followUps.turnNotices(this.chat.transcript, turn, this.runContext());
	}

	/** The notices of every turn that has any (for a view's snapshot). */
	allNotices(): TurnNotices[] {
		return this.chat.transcript.turns
			.map((turn) => this.turnNotices(turn))
			.filter((notices) => Object.keys(notices.items).length > 0 || notices.run.length > 0);
	}

	/** Re-sends every ended turn's notices (zero's facts changed, so the offered actions may have). */
	refresh(): void {
		for (const turn of this.chat.transcript.turns) {
			if (turn.run.phase === 'ended') {
				this.publishTurn(turn);
			}
		}
	}

	publishTurn(turn: Turn): void {
		this.emitter.fire({ notices: this.turnNotices(turn), replace: true });
	}

	/** A line of a running exec turn was applied: its tool card's notice may have changed. */
	lineApplied(turnId: string, parsed: ParsedLine): void {
		if (parsed.kind !== 'event' || !NOTICE_EVENTS.has(parsed.event.type)) {
			return;
		}
		const callId = (parsed.event as { id: string }).id;
		const turn = findTurn(this.chat.transcript, turnId);
		const item = turn ? findToolItem(turn.run, callId) : undefined;
		if (!turn || !item) {
			return;
		}
		const notice: NoticeView | undefined = this.followUps.liveToolNotice(
			this.chat.transcript,
			turn,
			item,
			this.runContext(),
		);
		if (notice) {
			this.emitter.fire({
				notices: { turnId, items: { [item.id]: notice }, run: [] },
				replace: false,
			});
		}
	}

	private runContext(): ChatRunContext {
		return {
			model: this.chat.model,
			addDirs: this.chat.addDirs,
			binaryForDisplay: this.binaryForDisplay,
			maxTurns: chatMaxTurns(this.deps),
			tracePath: this.deps.traces.pathFor(this.chat.transcript.id),
			facts: this.deps.facts.current(this.deps.workspaceFolder()),
		};
	}

	/**
	 * Runs a notice's action: a tool card's follow-up (with `itemId`) or the run's (Continue).
	 * Confirms if needed, stores or revokes a grant if asked, then re-runs in the same zero session.
	 */
	async runAction(turnId: string, itemId: string | undefined, actionId: string): Promise<void> {
		const chat = this.chat;
		const turn = findTurn(chat.transcript, turnId);
		if (!turn) {
			return;
		}
		if (chat.busy) {
			this.deps.messages.show(
				'error',
				'Wait for the current run to finish (or stop it) before re-running.',
			);
			return;
		}
		const rerun = await this.followUps.prepare(
			chat.transcript,
			turn,
			itemId,
			actionId,
			this.runContext(),
		);
		if (!rerun || chat.running) {
			return;
		}
		if (rerun.keepDir) {
			chat.setAddDirs([...chat.addDirs, rerun.keepDir]);
		}
		if (rerun.spec.id === 'rerun-mode' && rerun.spec.mode !== 'unsafe') {
			chat.permissionMode = rerun.spec.mode;
		}
		chat.startTurn({
			kind: rerun.spec.id === 'continue' ? 'continue' : 'rerun',
			message: rerun.message,
			displayText: rerun.message,
			context: [],
			images: [],
			permissionMode: rerun.permissionMode,
			addDirs: rerun.addDirs,
		});
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
