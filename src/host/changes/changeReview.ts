/**
 * Opens a review: VS Code's multi-file diff editor (`vscode.changes`) with each file's content
 * from before the turn on the left (read-only) and the file on disk now on the right; one
 * `vscode.diff` tab per file where `vscode.changes` does not exist (VS Code before 1.86).
 */
import * as vscode from 'vscode';
import type { FileChange } from '../../shared/changeSchema';
import type { ComputedChanges } from './changeFacts';
import { beforeUri, binaryNote, type BeforeContent } from './beforeDocuments';
import type { ReviewScope } from './fileActions';
import { resolveReportedPath } from './workspaceFiles';

/** Most single diff tabs the fallback opens at once. */
const FALLBACK_TABS = 20;

/** Files open in an editor with changes not saved yet (an undo must not pull them from under it). */
export function unsavedFiles(): string[] {
	return vscode.workspace.textDocuments
		.filter((document) => document.isDirty && document.uri.scheme === 'file')
		.map((document) => document.uri.fsPath);
}

export interface ReviewTarget {
	chatId: string;
	scope: ReviewScope;
	cwd: string;
	addDirs: readonly string[];
	title: string;
}

export interface ReviewSides {
	change: FileChange;
	/** What the review lists the file as. */
	label: vscode.Uri;
	before: vscode.Uri;
	/** The file did not exist before the turn (the multi-file editor shows it as added). */
	created: boolean;
	/** Undefined when the file is gone (the multi-file editor shows it as deleted). */
	now: vscode.Uri | undefined;
}

function noteUri(
	target: ReviewTarget,
	filePath: string,
	text: string,
	diskPath: string | undefined,
): vscode.Uri {
	return beforeUri({
		chatId: target.chatId,
		scope: target.scope,
		path: filePath,
		content: { kind: 'note', text },
		diskPath,
	});
}

/** The two sides of every changed file in `computed`. */
export function reviewSides(target: ReviewTarget, computed: ComputedChanges): ReviewSides[] {
	const sides: ReviewSides[] = [];
	for (const change of computed.changes.files) {
		if (change.kind === 'unchanged') {
			continue;
		}
		const absolute = resolveReportedPath(target.cwd, change.path, target.addDirs);
		const label = vscode.Uri.file(absolute ?? change.path);
		const copy = computed.copies.get(change.path)?.copy;
		let before: BeforeContent;
		if (change.before.kind === 'unavailable') {
			before = {
				kind: 'note',
				text: `Zero has no copy of ${change.path} from before the turn: ${change.before.reason}.`,
			};
		} else if (change.before.empty || copy?.kind !== 'content') {
			before = { kind: 'empty' };
		} else {
			before = { kind: 'content', sha256: copy.sha256 };
		}
		const state = computed.states.get(change.path);
		let now: vscode.Uri | undefined;
		if (state?.kind === 'file') {
			now = state.binary
				? noteUri(target, change.path, binaryNote('now', state.size, state.sha256), absolute)
				: label;
		} else if (state?.kind === 'unknown') {
			now = noteUri(
				target,
				change.path,
				`${change.path} cannot be shown: ${state.reason}.`,
				absolute,
			);
		}
		sides.push({
			change,
			label,
			before: beforeUri({
				chatId: target.chatId,
				scope: target.scope,
				path: change.path,
				content: before,
				diskPath: absolute,
			}),
			created: before.kind === 'empty' && change.before.kind === 'available' && change.before.empty,
			now,
		});
	}
	return sides;
}

let multiDiffSupport: Promise<boolean> | undefined;

/** Whether this VS Code has the multi-file diff editor command. */
export function hasMultiDiffEditor(): Promise<boolean> {
	multiDiffSupport ??= Promise.resolve(
		vscode.commands.getCommands(true).then((commands) => commands.includes('vscode.changes')),
	);
	return multiDiffSupport;
}

function deletedUri(target: ReviewTarget, sides: ReviewSides): vscode.Uri {
	return noteUri(
		target,
		sides.change.path,
		`${sides.change.path} does not exist now (deleted).`,
		sides.label.fsPath,
	);
}

/** Opens one file's diff in its own tab. */
export async function openFileDiff(
	target: ReviewTarget,
	sides: ReviewSides,
	options: { preview?: boolean } = {},
): Promise<void> {
	await vscode.commands.executeCommand(
		'vscode.diff',
		sides.before,
		sides.now ?? deletedUri(target, sides),
		`${sides.change.path} (before zero \u2194 now)`,
		{ preview: options.preview ?? true },
	);
}

/** Opens the review of every changed file; returns how it was shown. */
export async function openReview(
	target: ReviewTarget,
	sides: readonly ReviewSides[],
	options: { forceSingleDiffs?: boolean } = {},
): Promise<'multi' | 'single'> {
	if (!options.forceSingleDiffs && (await hasMultiDiffEditor())) {
		await vscode.commands.executeCommand(
			'vscode.changes',
			target.title,
			// No left side for a created file: the editor shows it as added.
			sides.map((entry) => [entry.label, entry.created ? undefined : entry.before, entry.now]),
		);
		return 'multi';
	}
	for (const entry of sides.slice(0, FALLBACK_TABS)) {
		await openFileDiff(target, entry, { preview: false });
	}
	if (sides.length > FALLBACK_TABS) {
		void vscode.window.showInformationMessage(
			`Opened the first ${FALLBACK_TABS} of ${sides.length} changed files; this VS Code has no multi-file diff editor.`,
		);
	}
	return 'single';
}
