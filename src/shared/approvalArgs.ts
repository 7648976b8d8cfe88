/**
 * What an approval card shows of a permission request: every argument of the request's own
 * `rawInput`, the one zero's tool runs first and marked as such, each cut only with a visible count
 * of what was left out.
 *
 * Which key a tool runs is zero's, not a guess: zero v0.8.0's tools read their main input with
 * `aliasedStringArg`, the first present key of a fixed list winning (internal/tools/*.go). `bash`
 * runs `command` even when `cmd` is present too, `exec_command` the other way round, so a card that
 * showed "the first of cmd or command" could show one command while zero runs another.
 */

/** The keys each tool reads its main input from, in zero's order (internal/tools/*.go). */
const MAIN_INPUT_KEYS: Readonly<Record<string, readonly string[]>> = {
	bash: ['command', 'cmd', 'script', 'shell'],
	exec_command: ['cmd', 'command', 'script', 'shell'],
	write_file: ['path', 'file', 'file_path', 'filename'],
	edit_file: ['path', 'file', 'file_path', 'filename'],
	read_file: ['path', 'file', 'file_path', 'filepath', 'filename'],
	apply_patch: ['patch', 'diff'],
	web_fetch: ['url'],
	web_search: ['query'],
	glob: ['pattern', 'glob', 'match', 'query', 'expression'],
	grep: ['pattern', 'query', 'regex', 'search', 'expression'],
};

/** What the card calls the argument a tool runs: words, not zero's key (`cmd`, `path`). */
const MAIN_INPUT_WORDS = new Map<string, string>([
	['bash', 'Command'],
	['exec_command', 'Command'],
	['write_file', 'File'],
	['edit_file', 'File'],
	['read_file', 'File'],
	['apply_patch', 'Patch'],
	['web_fetch', 'Web address'],
	['web_search', 'Search'],
	['glob', 'Files matching'],
	['grep', 'Text to find'],
]);

/** Longest argument text a card shows; the rest is counted in a visible marker. */
export const APPROVAL_VALUE_CHARS = 20_000;
/** Most arguments a card lists; the rest are counted in a visible marker. */
export const APPROVAL_MAX_ARGUMENTS = 40;

export interface ApprovalArgument {
	/** The argument's key; empty for a `rawInput` that is not an object. */
	key: string;
	/** What the card calls it: the tool's words for its main input, else the key. */
	label: string;
	text: string;
	/** Characters of the value left out of `text` (0: shown in full). */
	cutChars: number;
	/** zero's tool reads its main input (the command, the path) from this argument. */
	main: boolean;
	/** Why zero will refuse the call instead of running it, when the main input is unusable. */
	refusal?: string;
}

export interface ApprovalArguments {
	rows: ApprovalArgument[];
	/** Arguments left out (over {@link APPROVAL_MAX_ARGUMENTS}). */
	hiddenArguments: number;
}

function valueText(value: unknown): string {
	if (typeof value === 'string') {
		return value;
	}
	try {
		// rawInput is parsed JSON: no cycles, nothing JSON cannot write; only depth can fail.
		return JSON.stringify(value, null, 2) ?? String(value);
	} catch {
		return '(zero sent this argument nested too deeply to show)';
	}
}

function row(
	key: string,
	value: unknown,
	main: boolean,
	refusal?: string,
	label = key,
): ApprovalArgument {
	const text = valueText(value);
	const cut = text.length > APPROVAL_VALUE_CHARS;
	return {
		key,
		label,
		text: cut ? text.slice(0, APPROVAL_VALUE_CHARS) : text,
		cutChars: cut ? text.length - APPROVAL_VALUE_CHARS : 0,
		main,
		...(refusal ? { refusal } : {}),
	};
}

/** zero's `aliasedStringArg`: the first key present and not null; a non-string or empty one fails. */
function mainInputKey(
	toolName: string,
	args: Record<string, unknown>,
): { key: string; refusal?: string } | undefined {
	// Own keys only: a model can name a tool `constructor`.
	const keys = Object.hasOwn(MAIN_INPUT_KEYS, toolName) ? MAIN_INPUT_KEYS[toolName] : undefined;
	if (!keys) {
		return undefined;
	}
	const key = keys.find((candidate) => args[candidate] !== undefined && args[candidate] !== null);
	if (key === undefined) {
		return undefined;
	}
	const value = args[key];
	if (typeof value !== 'string') {
		return { key, refusal: `zero refuses the call: "${key}" must be a string.` };
	}
	if (value === '') {
		return { key, refusal: `zero refuses the call: "${key}" must not be empty.` };
	}
	return { key };
}

/** The rows of a card for `rawInput` of a request naming `toolName`. */
export function approvalArguments(toolName: string, rawInput: unknown): ApprovalArguments {
	if (rawInput === undefined || rawInput === null) {
		return { rows: [], hiddenArguments: 0 };
	}
	if (typeof rawInput !== 'object' || Array.isArray(rawInput)) {
		return { rows: [row('', rawInput, false)], hiddenArguments: 0 };
	}
	const args = rawInput as Record<string, unknown>;
	const main = mainInputKey(toolName, args);
	const keys = Object.keys(args);
	const ordered = main ? [main.key, ...keys.filter((key) => key !== main.key)] : keys;
	const shown = ordered.slice(0, APPROVAL_MAX_ARGUMENTS);
	return {
		rows: shown.map((key) =>
			key === main?.key
				? row(key, args[key], true, main.refusal, MAIN_INPUT_WORDS.get(toolName) ?? key)
				: row(key, args[key], false),
		),
		hiddenArguments: ordered.length - shown.length,
	};
}
