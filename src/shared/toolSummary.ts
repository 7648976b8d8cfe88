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
		submit_spec: ['title'],
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

// Shell tools: the header shows the command as a user would type it.
const SHELL_TOOLS = new Set(['bash', 'exec_command']);
// Tools whose summary argument names the object on its own (a path, a pattern, a URL).
const SELF_EXPLAINING = new Set([...SUMMARY_KEYS.keys()].filter((name) => name !== 'write_stdin'));

/**
 * What a tool card's header leads with: the object of the call (`$ npm test`, `src/math.js`), the
 * tool's name only where the object alone would not say what happened (or there is no object).
 */
export function toolHeadline(name: string, args: unknown): string {
	const summary = summarizeToolArgs(name, args);
	if (summary === '' && name !== 'submit_spec') {
		return oneLine(name);
	}
	if (SHELL_TOOLS.has(name)) {
		return `$ ${summary}`;
	}
	if (name === 'submit_spec') {
		// zero's spec draft hands in its spec: named by its title, never by its Markdown.
		const title = (args as { title?: unknown } | null)?.title;
		return typeof title === 'string' && title.trim() !== ''
			? oneLine(`Spec for review: ${title}`)
			: 'Spec for review';
	}
	return SELF_EXPLAINING.has(name) ? summary : oneLine(`${name} ${summary}`);
}

/**
 * zero's read_file output for display: zero v0.8.0 writes a `File: <path> (...)` header and then
 * each line as its number, right-aligned to the widest number, then ` | ` (internal/tools/
 * read_file.go). The prefix is removed for reading; every other line (zero's notes, its budget
 * markers) is left as it is. Anything not in that shape is returned unchanged.
 */
export function readFileDisplayText(name: string, output: string): string {
	if (name !== 'read_file' || !output.startsWith('File: ')) {
		return output;
	}
	const lines = output.split('\n');
	const first = lines.findIndex((line, index) => index > 0 && /^ *\d+ \| /.test(line));
	if (first < 0) {
		return output;
	}
	const width = (/^( *\d+) \| /.exec(lines[first]) ?? ['', ''])[1].length;
	const prefix = new RegExp(`^(?= {0,${width - 1}}\\d)[ \\d]{${width}} \\| `);
	let expected = Number(lines[first].slice(0, width));
	for (let index = first; index < lines.length; index++) {
		const match = prefix.exec(lines[index]);
		// Numbered lines follow each other; the first gap ends zero's listing.
		if (!match || Number(match[0].slice(0, width)) !== expected) {
			break;
		}
		lines[index] = lines[index].slice(match[0].length);
		expected++;
	}
	return lines.join('\n');
}
