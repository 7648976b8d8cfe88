/**
 * zero's user slash commands (`.zero/commands/<name>.md` and `<user config>/zero/commands/<name>.md`),
 * parsed and expanded exactly as zero v0.8.0's TUI does (`internal/usercommands/usercommands.go`,
 * `internal/tui/user_commands.go`). zero expands them ONLY in its TUI: `zero exec` and `zero acp`
 * send "/name args" to the model as it was typed, so the extension must expand them itself before
 * a prompt leaves. Pure: the files are read by `zeroCommandsLoader.ts`.
 */

/** A user command as zero's `usercommands.Command` holds it. */
export interface ZeroUserCommand {
	/** The `/name`: the file's basename, lowercased, without `.md`. */
	name: string;
	/** Front matter `description:`, else `User command: /<name>`. */
	description: string;
	/** Front matter `model:` ('' when absent). zero v0.8.0 parses it but its TUI never applies it. */
	model: string;
	/** Front matter `agent:`, else `mode:` ('' when absent); parsed, never applied by the TUI. */
	agent: string;
	/** The body after the front matter, trimmed: what `expandZeroCommand` fills in. */
	template: string;
	/** True for `.zero/commands` (the project), false for the user's folder. */
	project: boolean;
	/** The file it came from, for a tooltip. */
	path: string;
}

/**
 * Go's `unicode.IsSpace` (what `strings.Fields` and `strings.TrimSpace` split and trim on). Not
 * JavaScript's `\s`: Go counts U+0085 (NEL) as space and U+FEFF (BOM) not.
 */
const GO_SPACE_CHARS =
	'\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const GO_SPACE_RUN = new RegExp(`[${GO_SPACE_CHARS}]+`, 'u');
const GO_LEADING_SPACE = new RegExp(`^[${GO_SPACE_CHARS}]+`, 'u');
const GO_TRAILING_SPACE = new RegExp(`[${GO_SPACE_CHARS}]+$`, 'u');

/** Go's `strings.TrimSpace`. */
export function goTrimSpace(text: string): string {
	return text.replace(GO_LEADING_SPACE, '').replace(GO_TRAILING_SPACE, '');
}

/**
 * Go's `strings.ToLower`: each code point by its simple lower-case mapping. JavaScript applies
 * the special casings instead: "\u0130" (I with a dot) becomes "i" plus a combining dot there, "i" in Go.
 */
export function goToLower(text: string): string {
	let out = '';
	for (const char of text) {
		out += char === '\u0130' ? 'i' : char.toLowerCase();
	}
	return out;
}

/** Go's `strings.Fields`: the non-empty runs between spaces. */
export function goFields(text: string): string[] {
	return text.split(GO_SPACE_RUN).filter((field) => field !== '');
}

/**
 * The command name zero gives a file in a commands folder, or undefined when zero skips it:
 * only `*.md` (any case), named by the lowercased basename, which must be `[a-z0-9-]+`
 * (usercommands.go:87, 95-97, 107-117).
 */
export function zeroCommandNameOf(fileName: string): string | undefined {
	const dot = fileName.lastIndexOf('.');
	// filepath.Ext: from the last dot of the base name ("" when there is none).
	if (dot < 0 || fileName.slice(dot).toLowerCase() !== '.md') {
		return undefined;
	}
	const name = goToLower(fileName.slice(0, dot));
	return /^[a-z0-9-]+$/.test(name) ? name : undefined;
}

/** usercommands.go:187-201: front matter only when the text starts with exactly "---\n". */
function splitFrontMatter(normalized: string): { frontMatter: string; body: string } | undefined {
	if (!normalized.startsWith('---\n')) {
		return undefined;
	}
	const lines = normalized.split('\n');
	for (let index = 1; index < lines.length; index++) {
		if (goTrimSpace(lines[index]) === '---') {
			return {
				frontMatter: lines.slice(1, index).join('\n'),
				body: lines.slice(index + 1).join('\n'),
			};
		}
	}
	return undefined;
}

/** usercommands.go:203-211: the first line starting with `key:` (any case), quotes trimmed. */
function frontMatterValue(frontMatter: string, key: string): string {
	const prefix = `${key.toLowerCase()}:`;
	for (const line of frontMatter.split('\n')) {
		const trimmed = goTrimSpace(line);
		if (trimmed.toLowerCase().startsWith(prefix)) {
			// strings.Trim(v, `"'`): every leading and trailing quote, of either kind.
			return goTrimSpace(trimmed.slice(prefix.length)).replace(/^["']+|["']+$/g, '');
		}
	}
	return '';
}

/** usercommands.go:119-136: a command file's text as zero reads it. */
export function parseZeroCommand(
	name: string,
	raw: string,
	origin: { project: boolean; path: string },
): ZeroUserCommand {
	let body = raw.replaceAll('\r\n', '\n');
	let description = '';
	let model = '';
	let agent = '';
	const split = splitFrontMatter(body);
	if (split) {
		body = split.body;
		description = frontMatterValue(split.frontMatter, 'description');
		model = frontMatterValue(split.frontMatter, 'model');
		agent =
			frontMatterValue(split.frontMatter, 'agent') || frontMatterValue(split.frontMatter, 'mode');
	}
	return {
		name,
		description: description || `User command: /${name}`,
		model,
		agent,
		template: goTrimSpace(body),
		project: origin.project,
		path: origin.path,
	};
}

/**
 * usercommands.go:60-75: one list from both folders, a project command shadowing a user command
 * of the same name, sorted by name (byte order, as Go's `<` on strings).
 */
export function mergeZeroCommands(
	user: readonly ZeroUserCommand[],
	project: readonly ZeroUserCommand[],
): ZeroUserCommand[] {
	const byName = new Map<string, ZeroUserCommand>();
	for (const command of [...user, ...project]) {
		byName.set(command.name, command);
	}
	return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * usercommands.go:146-183, `Expand`:
 *   `$ARGUMENTS` → the whole argument string (trimmed); `$1`..`$9` → the Nth space-separated word
 *   ('' when absent; only one digit, so `$10` is `$1` then `0`); `$$` → `$`; any other `$` stays.
 * No quoting: `"a b"` is two words. A template without any `$` gets the arguments appended after
 * a blank line (or nothing when there are none).
 */
export function expandZeroCommand(template: string, rawArgs: string): string {
	const args = goTrimSpace(rawArgs);
	const positional = goFields(args);
	if (!template.includes('$')) {
		return args === '' ? template : `${template}\n\n${args}`;
	}
	let out = '';
	for (let index = 0; index < template.length; index++) {
		const char = template[index];
		if (char !== '$' || index === template.length - 1) {
			out += char;
			continue;
		}
		const next = template[index + 1];
		if (next === '$') {
			out += '$';
			index++;
		} else if (next >= '1' && next <= '9') {
			out += positional[Number(next) - 1] ?? '';
			index++;
		} else if (template.startsWith('ARGUMENTS', index + 1)) {
			out += args;
			index += 'ARGUMENTS'.length;
		} else {
			out += '$';
		}
	}
	return out;
}

/**
 * zero's TUI built-in slash commands and aliases (`internal/tui/commands.go:86-412`). They win
 * over a user command of the same name (`parseCommand` resolves built-ins first, user commands
 * only on `commandUnknown`; skill_commands.go:13-16: builtin > user command > skill).
 */
export const ZERO_TUI_BUILTIN_COMMANDS: ReadonlySet<string> = new Set(
	(
		'provider model stt-model voice plan permissions ps stop sandbox-setup tools skills context ' +
		'image add-dir clear new btw search find mcp mcp-status resume sessions rename spec init ' +
		'compact transcript rewind undo effort fast style selfcorrect sc turns profile retry edit copy ' +
		'export loop goal help pets pet doctor health config debug debug-mode theme exit quit'
	).split(' '),
);

/** user_commands.go:52-64: "/Name  rest" → `{ name: 'name', args: 'rest' }`; not a slash: undefined. */
export function splitZeroCommandInput(raw: string): { name: string; args: string } | undefined {
	const trimmed = goTrimSpace(raw);
	if (!trimmed.startsWith('/')) {
		return undefined;
	}
	const first = goFields(trimmed)[0];
	if (first === undefined) {
		return undefined;
	}
	return { name: goToLower(first.slice(1)), args: goTrimSpace(trimmed.slice(first.length)) };
}

/** What typing a slash line would send, as zero's TUI decides it. */
export type ZeroCommandResolution =
	| { kind: 'expanded'; command: ZeroUserCommand; prompt: string }
	/** Not a user command (no slash, a built-in, an unknown name, or an empty expansion). */
	| { kind: 'none'; reason: 'not-a-command' | 'builtin' | 'unknown' | 'empty' };

/**
 * user_commands.go:20-36 after commands.go:424-430: a built-in name is never a user command, an
 * unknown name is not expanded, and an expansion that is blank is not sent (zero then reports an
 * unknown command).
 */
export function resolveZeroCommand(
	raw: string,
	commands: readonly ZeroUserCommand[],
): ZeroCommandResolution {
	const split = splitZeroCommandInput(raw);
	if (!split || split.name === '') {
		return { kind: 'none', reason: 'not-a-command' };
	}
	if (ZERO_TUI_BUILTIN_COMMANDS.has(split.name)) {
		return { kind: 'none', reason: 'builtin' };
	}
	const command = commands.find((candidate) => candidate.name === split.name);
	if (!command) {
		return { kind: 'none', reason: 'unknown' };
	}
	const prompt = expandZeroCommand(command.template, split.args);
	if (goTrimSpace(prompt) === '') {
		return { kind: 'none', reason: 'empty' };
	}
	return { kind: 'expanded', command, prompt };
}
