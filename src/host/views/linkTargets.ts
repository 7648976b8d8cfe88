/** Where a link in a chat points on disk, and whether that is inside the workspace. */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';

/** The real path of a file, or of its nearest existing parent joined with the rest. */
function realPath(file: string): string {
	const rest: string[] = [];
	for (let current = file; ; current = path.dirname(current)) {
		try {
			return path.join(realpathSync.native(current), ...rest.reverse());
		} catch {
			if (path.dirname(current) === current) {
				return file;
			}
			rest.push(path.basename(current));
		}
	}
}

function isWithin(folder: string, file: string): boolean {
	const relative = path.relative(folder, file);
	return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Resolves a link target (relative to the first folder) and says whether it is inside one of
 * the workspace folders, after following symlinks: a model's link must not open
 * `../../.ssh/id_rsa` without the user agreeing.
 */
export function resolveLinkTarget(
	file: string,
	folders: readonly string[],
): { path: string; inside: boolean } {
	const resolved =
		path.isAbsolute(file) || folders.length === 0
			? path.resolve(file)
			: path.resolve(folders[0], file);
	const real = realPath(resolved);
	const inside = folders.some(
		(folder) =>
			isWithin(realPath(path.resolve(folder)), real) && isWithin(path.resolve(folder), resolved),
	);
	return { path: resolved, inside };
}
