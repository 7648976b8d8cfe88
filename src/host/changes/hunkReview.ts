/**
 * Per-hunk review in the editor: the file opens as a normal editor with each hunk zero made
 * marked (changed lines highlighted, the lines from before in the hover) and CodeLens actions
 * above it, Keep / Undo, plus Keep All / Undo All on the first line. An undo is an edit of the
 * document (so the editor's own Undo takes it back), saved when the document had no unsaved
 * changes; a hunk the user edited since asks first. States go to the turn's change card.
 */
import * as vscode from 'vscode';
import type { HunkState } from '../../shared/changeSchema';
import type { Logger } from '../platform/log';
import type { ChangeRecords } from './changeRecords';
import { offsetsOf, placeHunks, type Hunk, type HunkPlace } from './hunks';
import {
	hunkStatesOf,
	lastTurnChanging,
	loadHunkFile,
	saveHunkStates,
	type HunkFile,
} from './hunkSource';
import { workspaceKeys, type ChangeChat } from './undoTurns';
import { resolveReportedPath } from './workspaceFiles';

export interface HunkReviewDeps {
	chat(chatId: string): ChangeChat | undefined;
	/** The chat a command on an open file means (the active one). */
	activeChat(): ChangeChat | undefined;
	records(chatId: string): ChangeRecords | undefined;
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	log: Logger;
}

interface OpenReview {
	file: HunkFile;
	states: HunkState[];
	uri: vscode.Uri;
}

export type HunkOutcome =
	| { kind: 'done'; states: HunkState[] }
	| { kind: 'cancelled' }
	| { kind: 'refused'; message: string };

const MAX_HOVER_LINES = 40;

export class HunkReview implements vscode.CodeLensProvider, vscode.Disposable {
	private readonly reviews = new Map<string, OpenReview>();
	private readonly lensesChanged = new vscode.EventEmitter<void>();
	readonly onDidChangeCodeLenses = this.lensesChanged.event;
	private readonly disposables: vscode.Disposable[] = [];
	private readonly changedLines = vscode.window.createTextEditorDecorationType({
		isWholeLine: true,
		backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
		borderWidth: '0 0 0 3px',
		borderStyle: 'solid',
		borderColor: new vscode.ThemeColor('editorGutter.addedBackground'),
		overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
		overviewRulerLane: vscode.OverviewRulerLane.Left,
	});
	private readonly conflictLines = vscode.window.createTextEditorDecorationType({
		isWholeLine: true,
		borderWidth: '0 0 0 3px',
		borderStyle: 'dashed',
		borderColor: new vscode.ThemeColor('editorWarning.foreground'),
		overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.warningForeground'),
		overviewRulerLane: vscode.OverviewRulerLane.Left,
	});
	private readonly removedMarks = vscode.window.createTextEditorDecorationType({
		borderWidth: '1px 0 0 0',
		borderStyle: 'solid',
		borderColor: new vscode.ThemeColor('editorGutter.deletedBackground'),
		isWholeLine: true,
	});
	/** Tests: the last question asked about a conflict. */
	lastConflictQuestion: string | undefined;

	constructor(private readonly deps: HunkReviewDeps) {
		this.disposables.push(
			this.lensesChanged,
			this.changedLines,
			this.conflictLines,
			this.removedMarks,
			vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this),
			vscode.workspace.onDidChangeTextDocument((event) => {
				if (this.reviews.has(event.document.uri.toString())) {
					this.refresh();
				}
			}),
			vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
		);
	}

	/** Opens `reportedPath` of turn `turnId` with its hunks marked. */
	async open(chat: ChangeChat, turnId: string, reportedPath: string): Promise<HunkOutcome> {
		const records = this.deps.records(chat.id);
		const loaded = records
			? await loadHunkFile(chat, turnId, reportedPath, records)
			: { ok: false as const, reason: 'this chat keeps no change records' };
		if (!loaded.ok) {
			return this.refuse(`Zero cannot review this file hunk by hunk: ${loaded.reason}.`);
		}
		const absolute = resolveReportedPath(loaded.file.cwd, loaded.file.path, []);
		if (!absolute) {
			return this.refuse(`${loaded.file.path} is not inside the chat's folder.`);
		}
		const uri = vscode.Uri.file(absolute);
		const review: OpenReview = { file: loaded.file, states: hunkStatesOf(chat, loaded.file), uri };
		this.reviews.set(uri.toString(), review);
		await vscode.window.showTextDocument(uri, { preview: false });
		this.refresh();
		return { kind: 'done', states: [...review.states] };
	}

	/** Opens the hunks of the active editor's file from the newest turn of the active chat. */
	async openActiveFile(): Promise<HunkOutcome> {
		const editor = vscode.window.activeTextEditor;
		const chat = this.deps.activeChat();
		const relative =
			editor && chat?.folder && editor.document.uri.scheme === 'file'
				? [...workspaceKeys(chat.folder, [editor.document.uri.fsPath])][0]
				: undefined;
		const turnId = relative !== undefined && chat ? lastTurnChanging(chat, relative) : undefined;
		if (!chat || relative === undefined || turnId === undefined) {
			return this.refuse('zero has not changed the file in this editor in the open chat.');
		}
		return this.open(chat, turnId, relative);
	}

	private refuse(message: string): HunkOutcome {
		void vscode.window.showWarningMessage(message);
		return { kind: 'refused', message };
	}

	/** The review shown for a document, with each hunk's place in its text now. */
	private placesOf(
		document: vscode.TextDocument,
	): { review: OpenReview; places: HunkPlace[] } | undefined {
		const review = this.reviews.get(document.uri.toString());
		const places = review && placeHunks(review.file.hunks, review.file.after, document.getText());
		return review && places ? { review, places } : undefined;
	}

	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const found = this.placesOf(document);
		if (!found) {
			return [];
		}
		const { review, places } = found;
		const target = review.uri.toString();
		const pending = review.states.filter((state) => state === 'pending').length;
		const top = new vscode.Range(0, 0, 0, 0);
		const lenses = [
			new vscode.CodeLens(top, {
				title: `Zero: ${pending} of ${review.file.hunks.length} hunks to review`,
				command: '',
			}),
			new vscode.CodeLens(top, {
				title: '$(check-all) Keep All',
				command: 'zero.keepAllHunks',
				arguments: [target],
			}),
			new vscode.CodeLens(top, {
				title: '$(discard) Undo All',
				command: 'zero.undoAllHunks',
				arguments: [target],
			}),
		];
		review.file.hunks.forEach((hunk, index) => {
			if (review.states[index] !== 'pending') {
				return;
			}
			const place = places[index];
			const line = Math.min(place.start, Math.max(0, document.lineCount - 1));
			const at = new vscode.Range(line, 0, line, 0);
			lenses.push(
				new vscode.CodeLens(at, {
					title: place.clean ? '$(check) Keep' : '$(warning) Keep (edited since)',
					command: 'zero.keepHunk',
					arguments: [target, index],
				}),
				new vscode.CodeLens(at, {
					title: '$(discard) Undo',
					command: 'zero.undoHunk',
					arguments: [target, index],
					tooltip: `Put back ${hunk.beforeLines.length} line(s) as they were before zero's turn`,
				}),
			);
		});
		return lenses;
	}

	private refresh(): void {
		this.lensesChanged.fire();
		this.decorate();
	}

	private decorate(): void {
		for (const editor of vscode.window.visibleTextEditors) {
			const found = this.placesOf(editor.document);
			const changed: vscode.DecorationOptions[] = [];
			const conflicts: vscode.DecorationOptions[] = [];
			const removed: vscode.DecorationOptions[] = [];
			found?.review.file.hunks.forEach((hunk, index) => {
				if (found.review.states[index] !== 'pending') {
					return;
				}
				const place = found.places[index];
				const hover = hoverOf(hunk, place);
				if (place.end > place.start) {
					const range = new vscode.Range(place.start, 0, place.end - 1, 0);
					(place.clean ? changed : conflicts).push({ range, hoverMessage: hover });
				} else {
					const line = Math.min(place.start, Math.max(0, editor.document.lineCount - 1));
					removed.push({ range: new vscode.Range(line, 0, line, 0), hoverMessage: hover });
				}
			});
			editor.setDecorations(this.changedLines, changed);
			editor.setDecorations(this.conflictLines, conflicts);
			editor.setDecorations(this.removedMarks, removed);
		}
	}

	private reviewOf(target: unknown): OpenReview | undefined {
		return typeof target === 'string' ? this.reviews.get(target) : undefined;
	}

	/** Marks hunks kept: they stay as zero left them. */
	keep(target: unknown, indices?: readonly number[]): HunkOutcome {
		const review = this.reviewOf(target);
		const chat = review && this.deps.chat(review.file.chatId);
		if (!review || !chat) {
			return this.refuse('This review is not open any more: open it again from the change card.');
		}
		for (const index of indices ?? review.file.hunks.map((_, at) => at)) {
			if (review.states[index] === 'pending') {
				review.states[index] = 'kept';
			}
		}
		return this.settle(review, chat);
	}

	/** Puts hunks back as they were before the turn (every pending one without `indices`). */
	async undo(target: unknown, indices?: readonly number[]): Promise<HunkOutcome> {
		const review = this.reviewOf(target);
		const chat = review && this.deps.chat(review.file.chatId);
		if (!review || !chat) {
			return this.refuse('This review is not open any more: open it again from the change card.');
		}
		if (chat.running) {
			return this.refuse('zero is running in this chat: wait for the run to finish first.');
		}
		const chosen = (indices ?? review.file.hunks.map((_, at) => at)).filter(
			(index) => review.states[index] === 'pending',
		);
		const document = await vscode.workspace.openTextDocument(review.uri);
		const version = document.version;
		const text = document.getText();
		const places = placeHunks(review.file.hunks, review.file.after, text);
		if (!places || chosen.length === 0) {
			return places
				? { kind: 'done', states: [...review.states] }
				: this.refuse(`${review.file.path} changed too much since the turn to find its hunks.`);
		}
		const ranges = chosen
			.map((index) => ({ index, place: places[index] }))
			.sort((a, b) => a.place.start - b.place.start);
		if (ranges.some((entry, at) => at > 0 && entry.place.start < ranges[at - 1].place.end)) {
			return this.refuse('Your edits join these hunks together: undo them one at a time.');
		}
		const edited = ranges.filter((entry) => !entry.place.clean);
		if (edited.length > 0) {
			const lines = edited
				.map(
					(entry) =>
						`lines ${entry.place.start + 1}\u2013${Math.max(entry.place.end, entry.place.start + 1)}`,
				)
				.join(', ');
			this.lastConflictQuestion = `You changed ${review.file.path} (${lines}) after zero's turn. Undo zero's change there anyway?`;
			const agreed = await this.deps.confirm(
				this.lastConflictQuestion,
				'Those lines are replaced with how they were before the turn, so your edits in them are lost. The rest of the file stays as it is.',
				'Overwrite and Undo',
			);
			if (!agreed) {
				return { kind: 'cancelled' };
			}
			if (document.version !== version) {
				return this.refuse(
					`${review.file.path} changed while the question was open: nothing was undone.`,
				);
			}
		}
		const wasDirty = document.isDirty;
		const edit = new vscode.WorkspaceEdit();
		for (const { index, place } of ranges) {
			const { from, to } = offsetsOf(text, place.start, place.end);
			const range = new vscode.Range(document.positionAt(from), document.positionAt(to));
			edit.replace(review.uri, range, review.file.hunks[index].beforeLines.join(''));
		}
		if (!(await vscode.workspace.applyEdit(edit))) {
			return this.refuse(`${review.file.path} could not be edited.`);
		}
		if (!wasDirty) {
			await document.save();
		}
		for (const { index } of ranges) {
			review.states[index] = 'undone';
		}
		return this.settle(review, chat);
	}

	private settle(review: OpenReview, chat: ChangeChat): HunkOutcome {
		saveHunkStates(chat, review.file, review.states);
		if (review.states.every((state) => state !== 'pending')) {
			this.reviews.delete(review.uri.toString());
		}
		this.refresh();
		return { kind: 'done', states: [...review.states] };
	}

	/** Tests: the hunks of the review open on `fsPath` and their places in the document now. */
	describe(fsPath: string): { states: HunkState[]; places: HunkPlace[] } | undefined {
		const uri = vscode.Uri.file(fsPath).toString();
		const review = this.reviews.get(uri);
		const document = vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === uri);
		const places =
			review && document && placeHunks(review.file.hunks, review.file.after, document.getText());
		return review ? { states: [...review.states], places: places ?? [] } : undefined;
	}

	dispose(): void {
		for (const disposable of this.disposables) {
			disposable.dispose();
		}
		this.reviews.clear();
	}
}

function hoverOf(hunk: Hunk, place: HunkPlace): vscode.MarkdownString {
	const hover = new vscode.MarkdownString();
	hover.appendMarkdown(
		place.clean
			? "**Zero** changed these lines. Before zero's turn:"
			: "**Zero** changed these lines and you edited them since. Before zero's turn:",
	);
	const shown = hunk.beforeLines
		.slice(0, MAX_HOVER_LINES)
		.join('')
		.replace(/\r?\n$/, '');
	hover.appendCodeblock(hunk.beforeLines.length === 0 ? '(no lines: zero added these)' : shown);
	if (hunk.beforeLines.length > MAX_HOVER_LINES) {
		hover.appendMarkdown(`\n\nand ${hunk.beforeLines.length - MAX_HOVER_LINES} more lines`);
	}
	return hover;
}
