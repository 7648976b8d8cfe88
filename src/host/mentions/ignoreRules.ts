/**
 * Which workspace paths a mention may name: not those `.gitignore` ignores, not those
 * `files.exclude` hides. Pure (the host reads the .gitignore files and the setting). Paths are
 * workspace-relative with `/`. The gitignore rules are git's (gitignore(5)): last matching line
 * wins, `!` re-includes, a trailing `/` matches folders only, a slash elsewhere anchors the pattern
 * to its .gitignore's folder, and nothing under an ignored folder can be re-included. Globs are
 * matched by globMatch.ts, in time linear in the path whatever a cloned repository's patterns are.
 */
import { compileGlob } from './globMatch';

/** Every ancestor of a relative path, then the path: `a/b/c` → `a`, `a/b`, `a/b/c`. */
function prefixes(relative: string): string[] {
	const parts = relative.split('/').filter((part) => part !== '' && part !== '.');
	return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}

/**
 * `files.exclude` as VS Code applies it: each `true` glob, relative to the folder; a hidden folder
 * hides all below it. `{ "when": ... }` entries need the sibling files; they are not applied.
 */
export function filesExcludeMatcher(setting: unknown): (relative: string) => boolean {
	const patterns =
		setting && typeof setting === 'object'
			? Object.entries(setting as Record<string, unknown>)
					.filter(([, value]) => value === true)
					.map(([glob]) => compileGlob(glob.replace(/^\.\//, ''), { braces: true }))
			: [];
	return (relative) => prefixes(relative).some((part) => patterns.some((matches) => matches(part)));
}

interface GitignoreRule {
	negate: boolean;
	dirOnly: boolean;
	matches: (relative: string) => boolean;
}

function parseGitignore(text: string): GitignoreRule[] {
	const rules: GitignoreRule[] = [];
	for (const rawLine of text.split(/\r?\n/)) {
		// Trailing spaces are dropped unless escaped; a line starting with # is a comment.
		let line = rawLine.replace(/(?<!\\)\s+$/, '');
		if (line === '' || line.startsWith('#')) {
			continue;
		}
		let negate = false;
		if (line.startsWith('!')) {
			negate = true;
			line = line.slice(1);
		} else if (line.startsWith('\\!') || line.startsWith('\\#')) {
			line = line.slice(1);
		}
		const dirOnly = line.endsWith('/');
		if (dirOnly) {
			line = line.slice(0, -1);
		}
		if (line === '') {
			continue;
		}
		// A slash at the start or in the middle anchors the pattern; else it matches at any depth.
		const anchored = line.includes('/');
		const glob = anchored ? line.replace(/^\//, '') : `**/${line}`;
		rules.push({ negate, dirOnly, matches: compileGlob(glob) });
	}
	return rules;
}

/** Folders whose answer a matcher remembers before it starts over. */
const FOLDER_MEMO_LIMIT = 10_000;

/** One `.gitignore`: its folder (relative, '' for the root) and its text. */
export interface GitignoreFile {
	dir: string;
	text: string;
}

/**
 * A matcher for the `.gitignore` files given (the host passes those on the path's way down).
 * `isDirectory` says whether the LAST part of the path is a folder.
 */
export function gitignoreMatcher(
	files: readonly GitignoreFile[],
): (relative: string, isDirectory: boolean) => boolean {
	const parsed = files
		.map((file) => ({ dir: file.dir.replace(/^\/+|\/+$/g, ''), rules: parseGitignore(file.text) }))
		// Deeper files are consulted after (and so win over) shallower ones.
		.sort(
			(a, b) => a.dir.split('/').length - b.dir.split('/').length || a.dir.length - b.dir.length,
		);
	const ignoredItself = (relative: string, isDirectory: boolean): boolean => {
		let ignored = false;
		for (const { dir, rules } of parsed) {
			if (dir !== '' && !relative.startsWith(`${dir}/`)) {
				continue;
			}
			const below = dir === '' ? relative : relative.slice(dir.length + 1);
			for (const rule of rules) {
				if ((!rule.dirOnly || isDirectory) && rule.matches(below)) {
					ignored = !rule.negate;
				}
			}
		}
		return ignored;
	};
	// Paths share their folders: each folder is looked up once (a bounded memo).
	const folders = new Map<string, boolean>();
	const folderIgnored = (part: string): boolean => {
		let ignored = folders.get(part);
		if (ignored === undefined) {
			if (folders.size >= FOLDER_MEMO_LIMIT) {
				folders.clear();
			}
			ignored = ignoredItself(part, true);
			folders.set(part, ignored);
		}
		return ignored;
	};
	return (relative, isDirectory) => {
		const parts = prefixes(relative);
		// A file under an ignored folder stays ignored, whatever a later `!` says (gitignore(5)).
		return parts.some((part, index) =>
			index < parts.length - 1 ? folderIgnored(part) : ignoredItself(part, isDirectory),
		);
	};
}

/** The folders whose `.gitignore` applies to a path: '', `a`, `a/b` for `a/b/c.txt`. */
export function gitignoreDirsFor(relative: string): string[] {
	const parts = prefixes(relative);
	return ['', ...parts.slice(0, -1)];
}
