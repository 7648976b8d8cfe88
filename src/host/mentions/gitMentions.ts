/**
 * @diff mentions through VS Code's built-in git extension (`vscode.git`, API version 1): the
 * working tree's changes (`git diff`) or the staged ones (`git diff --cached`) of the repository
 * holding a workspace folder. Only the types used here are declared (the extension's git.d.ts is
 * not a dependency); a missing or disabled git extension is "not available", not an error.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';

import { hiddenBy } from './hideRules';
import { diffSections, diffUnder, mentionBlock, type ResolvedMention } from './mentionText';

interface GitRepository {
	readonly rootUri: vscode.Uri;
	diff(cached?: boolean): Promise<string>;
}

interface GitApi {
	readonly repositories: readonly GitRepository[];
	getRepository(uri: vscode.Uri): GitRepository | null;
	openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}

interface GitExtension {
	readonly enabled: boolean;
	getAPI(version: 1): GitApi;
}

export type DiffScope = 'working-tree' | 'staged';

/** The git extension's API, or why there is none. */
export async function gitApi(): Promise<{ ok: true; api: GitApi } | { ok: false; reason: string }> {
	const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
	if (!extension) {
		return { ok: false, reason: "not available: VS Code's git extension is not installed" };
	}
	try {
		const exports = extension.isActive ? extension.exports : await extension.activate();
		if (!exports?.enabled) {
			return { ok: false, reason: 'not available: git is disabled (git.enabled)' };
		}
		return { ok: true, api: exports.getAPI(1) };
	} catch (error) {
		return {
			ok: false,
			reason: `not available: the git extension failed (${error instanceof Error ? error.message : String(error)})`,
		};
	}
}

/** @diff: the working tree's or the staged changes of the repository holding `folder`. */
export async function resolveDiffMention(
	folder: vscode.WorkspaceFolder,
	scope: DiffScope,
	api?: GitApi,
): Promise<ResolvedMention> {
	const label = scope === 'staged' ? 'staged changes' : 'working tree changes';
	if (!vscode.workspace.isTrusted) {
		return { ok: false, kind: 'diff', label, reason: 'the workspace is not trusted' };
	}
	let git = api;
	if (!git) {
		const found = await gitApi();
		if (!found.ok) {
			return { ok: false, kind: 'diff', label, reason: found.reason };
		}
		git = found.api;
	}
	const repository = git.getRepository(folder.uri);
	if (!repository) {
		return {
			ok: false,
			kind: 'diff',
			label,
			reason: `${folder.name} is not in a git repository git knows`,
		};
	}
	let diff: string;
	try {
		diff = await repository.diff(scope === 'staged');
	} catch (error) {
		return {
			ok: false,
			kind: 'diff',
			label,
			reason: `git diff failed: ${error instanceof Error ? error.message : String(error)}`,
		};
	}
	// A repository above the folder: only the folder's files (a rename out of it is left out too).
	const folderInRepo = path
		.relative(repository.rootUri.fsPath, folder.uri.fsPath)
		.split(path.sep)
		.join('/');
	const inside = folderInRepo.startsWith('..')
		? { diff: '', dropped: 0 }
		: diffUnder(diff, folderInRepo);
	// A change to a file the hide rules hide (a tracked .env, say) stays out, as a @file of it would.
	let hidden = 0;
	const shown: string[] = [];
	for (const section of diffSections(inside.diff)) {
		const relatives = section.files.map((file) =>
			folderInRepo === '' ? file : file.slice(folderInRepo.length + 1),
		);
		const hides = await Promise.all(
			relatives.map((relative) => hiddenBy(folder.uri.fsPath, relative, false, folder.uri)),
		);
		if (hides.some((why) => why !== undefined)) {
			hidden++;
		} else {
			shown.push(section.text);
		}
	}
	diff = shown.join('');
	const notes = [
		inside.dropped > 0
			? `${inside.dropped} changed file${inside.dropped === 1 ? '' : 's'} outside ${folder.name} left out`
			: undefined,
		hidden > 0
			? `${hidden} changed file${hidden === 1 ? '' : 's'} hidden by .gitignore, git's excludes or files.exclude left out`
			: undefined,
	].filter((note) => note !== undefined);
	if (diff.trim() === '') {
		return {
			ok: false,
			kind: 'diff',
			label,
			reason:
				hidden > 0
					? `every change is to a file hidden by .gitignore, git's excludes or files.exclude (${hidden})`
					: scope === 'staged'
						? 'nothing is staged'
						: 'the working tree has no changes',
		};
	}
	return mentionBlock('diff', label, diff, {
		language: 'diff',
		...(notes.length > 0 ? { note: notes.join('; ') } : {}),
	});
}
