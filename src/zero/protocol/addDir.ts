/**
 * --add-dir: which directory to propose for a path zero refused outside the workspace.
 *
 * zero checks a RELATIVE path against the workspace only (`internal/sandbox/scope.go` validate), so
 * --add-dir helps only when the model then uses the absolute path; an --add-dir root must be an
 * existing directory and never the filesystem root (`normalizeScopeRoot`), or the whole run fails
 * with `sandbox_error` (exit 3). Pure string logic for POSIX and Windows paths, no Node built-ins
 * (the webview bundles it through src/shared): the file system is asked through `isDirectory`.
 */
export interface AddDirContext {
	/** The refused run's workspace (`--cwd`); relative paths resolve against it. */
	cwd?: string;
	/** The user's home directory: never proposed, nor any directory above it. */
	homeDir?: string;
	/** Whether a path is an existing directory. Absent: the directory is judged from the path alone. */
	isDirectory?: (path: string) => boolean;
	/** The path names a directory (e.g. list_directory's path) rather than a file. */
	targetIsDirectory?: boolean;
}

export type AddDirChoice =
	| { ok: true; dir: string; target: string }
	| {
			ok: false;
			reason: 'relative-without-cwd' | 'filesystem-root' | 'home-directory' | 'unusable-path';
			target?: string;
	  };

interface SplitPath {
	windows: boolean;
	/** `/`, `C:\` or `\\server\share\`. */
	root: string;
	parts: string[];
}

function splitAbsolute(value: string): SplitPath | undefined {
	if (value.startsWith('/')) {
		return { windows: false, root: '/', parts: value.split('/').filter(Boolean) };
	}
	const drive = /^([A-Za-z]):[\\/]/.exec(value);
	if (drive) {
		return {
			windows: true,
			root: `${drive[1].toUpperCase()}:\\`,
			parts: value
				.slice(3)
				.split(/[\\/]+/)
				.filter(Boolean),
		};
	}
	const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)(?:[\\/]+|$)/.exec(value);
	if (unc) {
		return {
			windows: true,
			root: `\\\\${unc[1]}\\${unc[2]}\\`,
			parts: value
				.slice(unc[0].length)
				.split(/[\\/]+/)
				.filter(Boolean),
		};
	}
	return undefined;
}

function resolveParts(parts: string[]): string[] {
	const out: string[] = [];
	for (const part of parts) {
		if (part === '.' || part === '') {
			continue;
		}
		if (part === '..') {
			out.pop();
		} else {
			out.push(part);
		}
	}
	return out;
}

function joinPath(split: SplitPath, parts: string[]): string {
	return split.root + parts.join(split.windows ? '\\' : '/');
}

/** An absolute, normalized path: `value` as is when absolute, else resolved against `cwd`. */
export function resolveAgainst(value: string, cwd: string | undefined): string | undefined {
	const absolute = splitAbsolute(value);
	if (absolute) {
		return joinPath(absolute, resolveParts(absolute.parts));
	}
	const base = cwd ? splitAbsolute(cwd) : undefined;
	if (!base) {
		return undefined;
	}
	return joinPath(base, resolveParts([...base.parts, ...value.split(/[\\/]+/)]));
}

function sameOrAbove(dir: string, other: string): boolean {
	const a = splitAbsolute(dir);
	const b = splitAbsolute(other);
	if (!a || !b || a.windows !== b.windows) {
		return false;
	}
	const fold = (text: string): string => (a.windows ? text.toLowerCase() : text);
	const bParts = resolveParts(b.parts);
	const aParts = resolveParts(a.parts);
	return (
		fold(a.root) === fold(b.root) &&
		aParts.length <= bParts.length &&
		aParts.every((part, index) => fold(part) === fold(bParts[index]))
	);
}

/**
 * The directory to pass as `--add-dir` so that zero allows `target`: the target itself when it is
 * an existing directory, else its nearest existing ancestor; never the filesystem root, a drive
 * root or the home directory (or above it).
 */
export function chooseAddDir(target: string, context: AddDirContext): AddDirChoice {
	// A path with control characters is not one a user should be asked to approve.
	if (target.trim() === '' || /[\u0000-\u001f\u007f]/.test(target)) {
		return { ok: false, reason: 'unusable-path' };
	}
	const absolute = resolveAgainst(target, context.cwd);
	if (!absolute) {
		return { ok: false, reason: 'relative-without-cwd' };
	}
	const split = splitAbsolute(absolute);
	if (!split) {
		return { ok: false, reason: 'unusable-path', target: absolute };
	}
	let parts = resolveParts(split.parts);
	const isDirectory = context.isDirectory;
	if (isDirectory) {
		if (!isDirectory(absolute)) {
			parts = parts.slice(0, -1);
			while (parts.length > 0 && !isDirectory(joinPath(split, parts))) {
				parts = parts.slice(0, -1);
			}
		}
	} else if (!context.targetIsDirectory) {
		parts = parts.slice(0, -1);
	}
	if (parts.length === 0) {
		return { ok: false, reason: 'filesystem-root', target: absolute };
	}
	const dir = joinPath(split, parts);
	if (context.homeDir && sameOrAbove(dir, context.homeDir)) {
		return { ok: false, reason: 'home-directory', target: absolute };
	}
	return { ok: true, dir, target: absolute };
}

/**
 * Whether `path` (absolute, or relative to `cwd`) lies inside the workspace `cwd`. With no cwd, a
 * relative path that never climbs above its start counts as inside.
 */
export function isInsideWorkspace(path: string, cwd: string | undefined): boolean {
	if (splitAbsolute(path)) {
		return cwd !== undefined && sameOrAbove(cwd, path);
	}
	let depth = 0;
	for (const part of path.split(/[\\/]+/)) {
		if (part === '..') {
			depth -= 1;
			if (depth < 0) {
				return false;
			}
		} else if (part !== '.' && part !== '') {
			depth += 1;
		}
	}
	return true;
}
