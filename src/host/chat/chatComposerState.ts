/**
 * What a chat's composer holds between messages: the permission mode, model, plan-first switch,
 * mentions waiting to be sent, directories added to every run, and the queue, with the view the
 * composer draws from them. The chat (ChatSession) extends it with its runs. No VS Code.
 */
import type { ChatPermissionMode } from '../../zero/protocol/permissionModes';
import type { ComposerView } from '../../shared/protocol';
import type { ChatBackend, Transcript, TranscriptAction } from '../../shared/transcriptSchema';
import { Emitter } from '../platform/emitter';
import { composerMeter } from '../composer/composerMeter';
import { slashItems } from '../composer/slashCommands';
import type { ContextEntry } from '../composer/promptContext';
import type { ChatDeps } from './chatDeps';
import { queuedText, type Queued } from './chatQueue';

export abstract class ChatComposerState {
	permissionMode: ChatPermissionMode;
	model: string;
	/** Plan first: the next message drafts a spec for review (`zero exec --use-spec`). */
	planFirst = false;
	protected queue: Queued[] = [];
	protected context: ContextEntry[] = [];
	protected readonly composerEmitter = new Emitter<void>();
	readonly onComposerChange = this.composerEmitter.event;
	abstract readonly transcript: Transcript;
	protected abstract readonly deps: ChatDeps;
	abstract get folder(): string | undefined;
	abstract get running(): boolean;
	abstract get backend(): ChatBackend;
	abstract apply(action: TranscriptAction): void;

	constructor(settings: { permissionMode: ChatPermissionMode; model: string }) {
		this.permissionMode = settings.permissionMode;
		this.model = settings.model;
	}

	composerView(history: string[]): ComposerView {
		return {
			permissionMode: this.permissionMode,
			model: this.model,
			sendWithEnter: this.deps.settings().sendWithEnter,
			backend: this.backend,
			running: this.running,
			queue: this.queue.map(queuedText),
			context: this.context.map((entry) => entry.chip),
			addDirs: [...this.addDirs],
			history,
			...this.composerFactsView(),
			planFirst: this.planFirst,
		};
	}

	/** The meter and the / menu, from zero's facts about the chat's folder. */
	private composerFactsView(): Pick<ComposerView, 'meter' | 'slash'> {
		const facts = this.deps.composerFacts?.current(this.folder);
		return facts
			? {
					meter: composerMeter(this.transcript, this.model, this.backend, facts),
					slash: slashItems(facts.commands ?? [], facts.skills ?? [], facts.skippedCommands ?? []),
				}
			: {};
	}

	setPlanFirst(on: boolean): void {
		this.planFirst = on;
		this.composerEmitter.fire();
	}

	/** Re-sends the composer state (after a setting such as `zero.sendWithEnter` changed). */
	refreshComposer(): void {
		this.composerEmitter.fire();
	}

	setPermissionMode(mode: ChatPermissionMode): void {
		this.permissionMode = mode;
		this.composerEmitter.fire();
	}

	setModel(model: string): void {
		this.model = model.trim();
		this.composerEmitter.fire();
	}

	addContext(entry: ContextEntry): void {
		this.context = [
			...this.context.filter((existing) => existing.chip.id !== entry.chip.id),
			entry,
		];
		this.composerEmitter.fire();
	}

	removeContext(chipId: string): void {
		this.context = this.context.filter((entry) => entry.chip.id !== chipId);
		this.composerEmitter.fire();
	}

	/** Directories outside the workspace the user chose to keep adding to this chat's runs. */
	get addDirs(): readonly string[] {
		return this.transcript.addDirs ?? [];
	}

	setAddDirs(dirs: readonly string[]): void {
		this.apply({ type: 'chat/addDirs', dirs: [...new Set(dirs)] });
		this.composerEmitter.fire();
	}

	/** Stops adding a directory to this chat's runs. */
	removeAddDir(dir: string): void {
		if (this.addDirs.includes(dir)) {
			this.setAddDirs(this.addDirs.filter((kept) => kept !== dir));
		}
	}

	removeQueued(index: number): void {
		this.queue.splice(index, 1);
		this.composerEmitter.fire();
	}
}
