/** One-line, human summaries of tool calls for cards and notices. */

// A Map, not an object literal: a model can name a tool `constructor` or `__proto__`.
const SUMMARY_KEYS = new Map<string, readonly string[]>(
	Object.entries({
		bash: ['command'],
		exec_command: ['cmd', 'command'],
		write_stdin: ['session_id'],
		read_file: ['path'],
		read_minified_file: ['path'],
		write_file: ['path'],
		edit_file: ['path'],
		view_image: ['path'],
		list_directory: ['path'],
		glob: ['pattern'],
		grep: ['pattern'],
		web_fetch: ['url'],
		web_search: ['query'],
		apply_patch: ['patch'],
	}),
);

const FALLBACK_KEYS = ['path', 'command', 'cmd', 'file', 'pattern', 'query', 'url', 'name'];
const MAX_SUMMARY = 160;

function oneLine(value: string): string {
	const line = value.replace(/\s+/g, ' ').trim();
	return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}\u2026` : line;
}

function patchTargets(patch: string): string | undefined {
	const files = [
		...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\+\+\+ (?:b\/)?(.+)$/gm),
	]
		.map((match) => (match[1] ?? match[2] ?? '').trim())
		.filter((file) => file !== '' && file !== '/dev/null');
	return files.length > 0 ? [...new Set(files)].join(', ') : undefined;
}

/** The argument a user most wants to see: the path, the command, the pattern... */
export function summarizeToolArgs(name: string, args: unknown): string {
	if (typeof args === 'string') {
		return oneLine(args);
	}
	if (typeof args !== 'object' || args === null) {
		return '';
	}
	const record = args as Record<string, unknown>;
	if (name === 'apply_patch' && typeof record.patch === 'string') {
		return oneLine(patchTargets(record.patch) ?? record.patch);
	}
	for (const key of [...(SUMMARY_KEYS.get(name) ?? []), ...FALLBACK_KEYS]) {
		const value = record[key];
		if (typeof value === 'string' && value.trim() !== '') {
			return oneLine(value);
		}
	}
	for (const value of Object.values(record)) {
		if (typeof value === 'string' && value.trim() !== '') {
			return oneLine(value);
		}
	}
	return '';
}

/** The file path a tool call is about, if any (for links and `--add-dir`). */
export function toolPath(args: unknown): string | undefined {
	if (typeof args === 'object' && args !== null) {
		const value = (args as Record<string, unknown>).path;
		if (typeof value === 'string' && value !== '') {
			return value;
		}
	}
	return undefined;
}
