/**
 * Follows the specialists zero's `Task` tool spawns (issue #25). Their events are not in the
 * parent's stream-json, so while a Task call runs this reads zero's session store: `zero sessions
 * children <parent> --json` finds the child the call spawned (`spawnedFromEventId`), then the
 * child's `events.jsonl` gives its progress, applied to the Task card as `tool/specialist`. One
 * read at a time per call, a bounded number of reads, and a last one when the call's result
 * arrives. Bounded whatever zero streams: at most MAX_ACTIVE_WATCHES calls of a chat are watched at
 * once (the next ones wait, up to MAX_WAITING_WATCHES), the chat's children listings are one at a
 * time and shared by its calls, and every listing of the window passes one {@link ProcessGate}.
 * No vscode: the CLI, the store and the chat come in as {@link SpecialistWatchDeps}.
 */
import * as path from 'node:path';
import { findToolItem, findTurn } from '../../shared/transcript';
import type { Transcript, TranscriptAction } from '../../shared/transcriptSchema';
import type { CliResult } from '../../zero/process/cli';
import { sessionDirectory } from '../../zero/process/sessionStore';
import { readBounded } from '../../zero/process/storeFiles';
import type { ParsedLine } from '../../zero/protocol/parseLine';
import { ProcessGate } from './processGate';
import {
	buildSessionChildrenArgs,
	childOfTaskCall,
	specialistProgress,
	taskResultChild,
	type SpecialistChild,
} from '../../zero/protocol/specialists';

/** How often a running specialist is read, and for how long at most (then its card stays as read). */
export const SPECIALIST_POLL_MS = 1000;
const MAX_READS = 1800;
const MAX_EVENTS_BYTES = 2 * 1024 * 1024;
/** Task calls of one chat watched at once; later ones wait for one of them to end. */
export const MAX_ACTIVE_WATCHES = 4;
/** Task calls waiting to be watched; past this a call's card shows no progress. */
export const MAX_WAITING_WATCHES = 64;

export interface SpecialistWatchDeps {
	run(args: readonly string[], options: { cwd: string; timeoutMs: number }): Promise<CliResult>;
	/** zero's session store root, if known. */
	sessionsRoot(): string | undefined;
	cwd(): string;
	transcript: Transcript;
	apply(action: TranscriptAction): void;
	/** The window's bound on zero processes started to watch specialists (absent: this chat's own, 1). */
	gate?: ProcessGate;
	/** Replaceable in tests (a timer that the test fires by hand). */
	schedule?(work: () => void, ms: number): { cancel(): void };
}

interface Watched {
	turnId: string;
	callId: string;
	child?: SpecialistChild;
	/** The child the call's result names (`meta.session_id`), if zero's list does not have it. */
	resultChild?: string;
	reads: number;
	busy: boolean;
	done: boolean;
	last: string;
	timer?: { cancel(): void };
	/** It no longer holds one of the chat's active places. */
	released?: boolean;
}

export class SpecialistWatch {
	private readonly watched = new Map<string, Watched>();
	private readonly waiting: Watched[] = [];
	private active = 0;
	/** The children listing under way, shared by every call of its parent session. */
	private listing: { parent: string; answer: Promise<CliResult | undefined> } | undefined;
	private readonly gate: ProcessGate;
	private disposed = false;

	constructor(private readonly deps: SpecialistWatchDeps) {
		this.gate = deps.gate ?? new ProcessGate(1);
	}

	/** Watches `watch` now, or when one of the chat's active watches ends. */
	private admit(watch: Watched): void {
		if (this.active < MAX_ACTIVE_WATCHES) {
			this.active++;
			this.later(watch);
		} else if (this.waiting.length < MAX_WAITING_WATCHES) {
			this.waiting.push(watch);
		} else {
			watch.released = true;
			this.watched.delete(`${watch.turnId}:${watch.callId}`);
		}
	}

	/** A watch ended: its place goes to the longest-waiting call. */
	private release(watch: Watched): void {
		if (watch.released) {
			return;
		}
		watch.released = true;
		const waitingAt = this.waiting.indexOf(watch);
		if (waitingAt >= 0) {
			this.waiting.splice(waitingAt, 1);
			return;
		}
		this.active--;
		const next = this.waiting.shift();
		if (next && !this.disposed) {
			this.active++;
			this.later(next);
		}
	}

	/** `zero sessions children <parent>`: one at a time for the chat, through the window's gate. */
	private listChildren(parent: string): Promise<CliResult | undefined> {
		if (this.listing?.parent === parent) {
			return this.listing.answer;
		}
		const answer = this.gate
			.run(() =>
				this.deps.run(buildSessionChildrenArgs(parent), {
					cwd: this.deps.cwd(),
					timeoutMs: 10_000,
				}),
			)
			.catch(() => undefined)
			.finally(() => {
				if (this.listing?.answer === answer) {
					this.listing = undefined;
				}
			});
		this.listing = { parent, answer };
		return answer;
	}

	/** Every line of the chat's exec runs: a Task call starts a watch, its result ends it. */
	onLine(turnId: string, parsed: ParsedLine): void {
		if (parsed.kind !== 'event' || this.disposed) {
			return;
		}
		const event = parsed.event;
		if (event.type === 'tool_call' && event.name === 'Task') {
			const watch: Watched = {
				turnId,
				callId: event.id,
				reads: 0,
				busy: false,
				done: false,
				last: '',
			};
			const key = `${turnId}:${event.id}`;
			if (this.watched.has(key)) {
				// The same call id again (hostile or broken output): one watch per call.
				return;
			}
			this.watched.set(key, watch);
			this.admit(watch);
		} else if (event.type === 'tool_result' && event.name === 'Task') {
			const watch = this.watched.get(`${turnId}:${event.id}`);
			if (watch && !watch.done) {
				watch.done = true;
				watch.resultChild = taskResultChild(event.meta);
				watch.timer?.cancel();
				this.finalRead(watch);
			}
		} else if (event.type === 'run_end') {
			for (const watch of this.watched.values()) {
				if (watch.turnId === turnId && !watch.done) {
					watch.done = true;
					watch.timer?.cancel();
					this.finalRead(watch);
				}
			}
		}
	}

	/** The last look at a call that ended; a call still waiting for its place gets none. */
	private finalRead(watch: Watched): void {
		if (this.waiting.includes(watch)) {
			this.release(watch);
			return;
		}
		void this.read(watch).finally(() => this.release(watch));
	}

	private later(watch: Watched): void {
		if (this.disposed || watch.done || watch.reads >= MAX_READS) {
			if (!watch.done) {
				this.release(watch);
			}
			return;
		}
		// The run ended without a result for the call (stopped, crashed): one last look.
		if (findTurn(this.deps.transcript, watch.turnId)?.run.phase === 'ended') {
			watch.done = true;
			this.finalRead(watch);
			return;
		}
		const schedule =
			this.deps.schedule ??
			((work: () => void, ms: number) => {
				const timer = setTimeout(work, ms);
				return { cancel: () => clearTimeout(timer) };
			});
		watch.timer = schedule(() => {
			void this.read(watch).then(() => this.later(watch));
		}, SPECIALIST_POLL_MS);
	}

	/** One look at the child: find it, then read its events; applies progress when it changed. */
	async read(watch: Watched): Promise<void> {
		if (watch.busy || this.disposed) {
			return;
		}
		watch.busy = true;
		watch.reads++;
		try {
			const parent = findTurn(this.deps.transcript, watch.turnId)?.run.sessionId;
			if (!watch.child && parent) {
				const listed = await this.listChildren(parent);
				if (listed?.exitCode === 0) {
					try {
						watch.child = childOfTaskCall(JSON.parse(listed.stdout), watch.callId);
					} catch {
						// not JSON: look again next time
					}
				}
			}
			if (!watch.child && watch.resultChild) {
				watch.child = { sessionId: watch.resultChild, agent: 'specialist', title: '' };
			}
			const root = this.deps.sessionsRoot();
			if (!watch.child || !root) {
				return;
			}
			const dir = sessionDirectory(root, watch.child.sessionId);
			const bytes = dir.ok
				? await readBounded(path.join(dir.value, 'events.jsonl'), MAX_EVENTS_BYTES, true)
				: dir;
			const text = bytes.ok ? Buffer.from(bytes.value).toString('utf8') : '';
			const progress = specialistProgress(watch.child, text, watch.done);
			const signature = JSON.stringify(progress);
			const turn = findTurn(this.deps.transcript, watch.turnId);
			if (signature !== watch.last && turn && findToolItem(turn.run, watch.callId)) {
				watch.last = signature;
				this.deps.apply({
					type: 'tool/specialist',
					turnId: watch.turnId,
					callId: watch.callId,
					progress,
				});
			}
		} catch {
			// A failed look is retried by the next one; the card keeps what it showed.
		} finally {
			watch.busy = false;
		}
	}

	dispose(): void {
		this.disposed = true;
		for (const watch of this.watched.values()) {
			watch.timer?.cancel();
		}
		this.watched.clear();
		this.waiting.length = 0;
	}
}
