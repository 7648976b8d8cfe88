/**
 * Glob matching in time linear in the path for a given pattern, whatever the pattern. A glob
 * compiled to a regular expression backtracks: one `.gitignore` line such as `*a*a*a*a*a*a*b`, or
 * `x/**\/**\/**\/...\/y`, held the extension host for seconds on one 40-character name, and a cloned
 * repository chooses its `.gitignore`. Here a pattern is a list of tokens and a path is matched by
 * walking the set of tokens it may be at (an NFA), so each character costs at most one step per
 * token. Paths are `/`-separated.
 */

type Token =
	| { kind: 'char'; char: string }
	/** `?`: one character but `/`. */
	| { kind: 'one' }
	/** `*`: any run of characters but `/`. */
	| { kind: 'star' }
	/** `**\/` (or a leading `**\/`): any number of whole folders, none too. */
	| { kind: 'folders' }
	/** A final `**`: everything, `/` included. */
	| { kind: 'rest' }
	| { kind: 'class'; negated: boolean; items: (string | [string, string])[] };

export interface GlobOptions {
	/** `{a,b}` alternatives (VS Code's globs; gitignore has none). */
	braces?: boolean;
}

/** At most this many patterns come out of one glob's `{a,b}` alternatives; the rest never match. */
const MAX_ALTERNATIVES = 64;

function parseClass(glob: string, start: number): { token: Token; end: number } | undefined {
	let index = start + 1;
	let negated = false;
	if (glob[index] === '!' || glob[index] === '^') {
		negated = true;
		index++;
	}
	const items: (string | [string, string])[] = [];
	let first = true;
	for (; index < glob.length; index++) {
		let char = glob[index];
		if (char === ']' && !first) {
			return { token: { kind: 'class', negated, items }, end: index };
		}
		first = false;
		if (char === '\\' && index + 1 < glob.length) {
			char = glob[++index];
		}
		if (glob[index + 1] === '-' && glob[index + 2] !== undefined && glob[index + 2] !== ']') {
			let high = glob[index + 2];
			index += 2;
			if (high === '\\' && index + 1 < glob.length) {
				high = glob[++index];
			}
			items.push([char, high]);
		} else {
			items.push(char);
		}
	}
	return undefined;
}

function tokenize(glob: string): Token[] {
	const tokens: Token[] = [];
	for (let index = 0; index < glob.length; index++) {
		const char = glob[index];
		if (char === '*') {
			let end = index;
			while (glob[end + 1] === '*') {
				end++;
			}
			const atStart = index === 0 || glob[index - 1] === '/';
			const twoOrMore = end > index;
			if (twoOrMore && atStart && end + 1 === glob.length) {
				tokens.push({ kind: 'rest' });
			} else if (twoOrMore && atStart && glob[end + 1] === '/') {
				// `**/` is one token; `**/**/` is the same as `**/`.
				if (tokens.at(-1)?.kind !== 'folders') {
					tokens.push({ kind: 'folders' });
				}
				end++;
			} else if (tokens.at(-1)?.kind !== 'star') {
				tokens.push({ kind: 'star' });
			}
			index = end;
		} else if (char === '?') {
			tokens.push({ kind: 'one' });
		} else if (char === '[') {
			const parsed = parseClass(glob, index);
			if (parsed) {
				tokens.push(parsed.token);
				index = parsed.end;
			} else {
				tokens.push({ kind: 'char', char });
			}
		} else if (char === '\\' && index + 1 < glob.length) {
			tokens.push({ kind: 'char', char: glob[++index] });
		} else {
			tokens.push({ kind: 'char', char });
		}
	}
	return tokens;
}

function inClass(token: Extract<Token, { kind: 'class' }>, char: string): boolean {
	const found = token.items.some((item) =>
		typeof item === 'string' ? item === char : item[0] <= char && char <= item[1],
	);
	return char !== '/' && found !== token.negated;
}

/** `{a,b}c` → `ac`, `bc` (nested braces too), at most MAX_ALTERNATIVES of them. */
function expandBraces(glob: string): string[] {
	let results = [''];
	let index = 0;
	while (index < glob.length) {
		const char = glob[index];
		if (char === '\\' && index + 1 < glob.length) {
			results = results.map((prefix) => prefix + glob.slice(index, index + 2));
			index += 2;
			continue;
		}
		if (char !== '{') {
			results = results.map((prefix) => prefix + char);
			index++;
			continue;
		}
		let depth = 0;
		let close = -1;
		for (let scan = index; scan < glob.length; scan++) {
			if (glob[scan] === '\\') {
				scan++;
			} else if (glob[scan] === '{') {
				depth++;
			} else if (glob[scan] === '}' && --depth === 0) {
				close = scan;
				break;
			}
		}
		if (close < 0) {
			results = results.map((prefix) => prefix + char);
			index++;
			continue;
		}
		const alternatives: string[] = [];
		let part = '';
		depth = 0;
		for (let scan = index + 1; scan < close; scan++) {
			const inner = glob[scan];
			if (inner === ',' && depth === 0) {
				alternatives.push(part);
				part = '';
				continue;
			}
			depth += inner === '{' ? 1 : inner === '}' ? -1 : 0;
			part += inner;
		}
		alternatives.push(part);
		const expanded = alternatives.flatMap((alternative) => expandBraces(alternative));
		results = results
			.flatMap((prefix) => expanded.map((alternative) => prefix + alternative))
			.slice(0, MAX_ALTERNATIVES);
		index = close + 1;
	}
	return results;
}

/** A matcher for a whole path; each call is linear in the path's length. */
export function compileGlob(glob: string, options: GlobOptions = {}): (path: string) => boolean {
	const matchers = (options.braces ? expandBraces(glob) : [glob]).map((one) =>
		matcherOf(tokenize(one)),
	);
	return matchers.length === 1 ? matchers[0] : (path) => matchers.some((match) => match(path));
}

/** The text of a run of literal tokens, or undefined when one of them is not literal. */
function literalOf(tokens: readonly Token[]): string | undefined {
	let text = '';
	for (const token of tokens) {
		if (token.kind !== 'char') {
			return undefined;
		}
		text += token.char;
	}
	return text;
}

/**
 * The shapes most ignore lines have get a direct test (`name`, `*.ext`, `**\/name`, `**\/*.ext`);
 * the rest run the token walk, after a quick check that every literal part is in the path.
 */
function matcherOf(tokens: readonly Token[]): (path: string) => boolean {
	const first = tokens[0]?.kind;
	const literal = literalOf(tokens);
	if (literal !== undefined) {
		return (path) => path === literal;
	}
	const tail = literalOf(tokens.slice(1));
	if (first === 'star' && tail !== undefined && !tail.includes('/')) {
		return (path) => path.endsWith(tail) && !path.includes('/');
	}
	if (first === 'folders' && tail !== undefined) {
		return (path) => path === tail || path.endsWith(`/${tail}`);
	}
	const afterFolderStar =
		first === 'folders' && tokens[1]?.kind === 'star' ? literalOf(tokens.slice(2)) : undefined;
	if (afterFolderStar !== undefined && !afterFolderStar.includes('/')) {
		return (path) => path.slice(path.lastIndexOf('/') + 1).endsWith(afterFolderStar);
	}
	const runs: string[] = [];
	let run = '';
	for (const token of tokens) {
		if (token.kind === 'char') {
			run += token.char;
		} else if (run !== '') {
			runs.push(run);
			run = '';
		}
	}
	if (run !== '') {
		runs.push(run);
	}
	runs.sort((a, b) => b.length - a.length);
	const walk = new TokenWalk(tokens);
	return (path) => runs.every((part) => path.includes(part)) && walk.matches(path);
}

/**
 * The token walk: an NFA over the tokens, with its state arrays made once. `states[i]`: the path
 * read so far can end before token i; `inside[i]` (a `folders` token): inside one of the folders
 * it skips, not yet at its `/`.
 */
class TokenWalk {
	private states: Uint8Array;
	private inside: Uint8Array;
	private next: Uint8Array;
	private nextInside: Uint8Array;

	constructor(private readonly tokens: readonly Token[]) {
		const size = tokens.length + 1;
		this.states = new Uint8Array(size);
		this.inside = new Uint8Array(size);
		this.next = new Uint8Array(size);
		this.nextInside = new Uint8Array(size);
	}

	/** Tokens that may match nothing pass a state on, in order (all go forward). */
	private close(set: Uint8Array): void {
		const tokens = this.tokens;
		for (let index = 0; index < tokens.length; index++) {
			const kind = tokens[index].kind;
			if (set[index] && (kind === 'star' || kind === 'folders' || kind === 'rest')) {
				set[index + 1] = 1;
			}
		}
	}

	matches(path: string): boolean {
		const tokens = this.tokens;
		const count = tokens.length;
		this.states.fill(0);
		this.inside.fill(0);
		this.states[0] = 1;
		this.close(this.states);
		for (const char of path) {
			const { states, inside, next, nextInside } = this;
			next.fill(0);
			nextInside.fill(0);
			let any = false;
			for (let index = 0; index <= count; index++) {
				if (inside[index]) {
					// In a skipped folder: its `/` ends it (back to the folder boundary), else go on.
					if (char === '/') {
						next[index] = 1;
					} else {
						nextInside[index] = 1;
					}
					any = true;
				}
				if (!states[index] || index === count) {
					continue;
				}
				const token = tokens[index];
				switch (token.kind) {
					case 'char':
						if (token.char === char) {
							next[index + 1] = 1;
							any = true;
						}
						break;
					case 'one':
						if (char !== '/') {
							next[index + 1] = 1;
							any = true;
						}
						break;
					case 'star':
						if (char !== '/') {
							next[index] = 1;
							any = true;
						}
						break;
					case 'class':
						if (inClass(token, char)) {
							next[index + 1] = 1;
							any = true;
						}
						break;
					case 'folders':
						// An empty folder name: `**/` never matches `//`.
						if (char !== '/') {
							nextInside[index] = 1;
							any = true;
						}
						break;
					case 'rest':
						next[index] = 1;
						any = true;
						break;
				}
			}
			if (!any) {
				return false;
			}
			this.close(next);
			this.states = next;
			this.next = states;
			this.inside = nextInside;
			this.nextInside = inside;
		}
		return this.states[count] === 1;
	}
}
