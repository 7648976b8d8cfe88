/**
 * zero v0.8.0's user-command rules, one test each, citing the line of
 * /tmp/zerosrc/zero/internal/usercommands/usercommands.go (UC) or internal/tui/user_commands.go (TUI)
 * it mirrors; then the real zero's TUI, driven in a pseudo-terminal by
 * test/harness/recordComposerFacts.ts, replayed through the same code
 * (test/fixtures/recorded/composer/tui/). That `zero exec` does NOT expand is recorded there too.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import {
	expandZeroCommand,
	type ZeroCommandResolution,
	goFields,
	goTrimSpace,
	mergeZeroCommands,
	parseZeroCommand,
	resolveZeroCommand,
	splitZeroCommandInput,
	zeroCommandNameOf,
	type ZeroUserCommand,
} from '../../../src/zero/protocol/zeroCommands';

const origin = { project: true, path: '/ws/.zero/commands/x.md' };

function command(name: string, template: string, project = true): ZeroUserCommand {
	return parseZeroCommand(name, template, { project, path: `/${name}.md` });
}

describe('zero user command names', () => {
	it('UC:87 only *.md files, the extension in any case', () => {
		assert.equal(zeroCommandNameOf('release.md'), 'release');
		assert.equal(zeroCommandNameOf('release.MD'), 'release');
		assert.equal(zeroCommandNameOf('notes.txt'), undefined);
		assert.equal(zeroCommandNameOf('README'), undefined);
		assert.equal(zeroCommandNameOf('x.md.bak'), undefined);
	});

	it('UC:95 the name is the basename lowercased, before it is checked', () => {
		assert.equal(zeroCommandNameOf('Deploy-Prod.md'), 'deploy-prod');
	});

	it('UC:107-117 names are [a-z0-9-]+, non-empty', () => {
		assert.equal(zeroCommandNameOf('Bad Name.md'), undefined);
		assert.equal(zeroCommandNameOf('a.b.md'), undefined);
		assert.equal(zeroCommandNameOf('under_score.md'), undefined);
		assert.equal(zeroCommandNameOf('.md'), undefined);
		assert.equal(zeroCommandNameOf('café.md'), undefined);
		assert.equal(zeroCommandNameOf('v2-fix.md'), 'v2-fix');
	});
});

describe('zero user command files', () => {
	it('UC:121-131 front matter gives description and model; the body is the template', () => {
		const parsed = parseZeroCommand(
			'release',
			'---\ndescription: Cut a release\nmodel: claude-sonnet-4.5\n---\nCut release $1 from the current branch.',
			origin,
		);
		assert.equal(parsed.description, 'Cut a release');
		assert.equal(parsed.model, 'claude-sonnet-4.5');
		assert.equal(parsed.template, 'Cut release $1 from the current branch.');
		assert.equal(parsed.project, true);
	});

	it('UC:121 CRLF files are read as LF', () => {
		const parsed = parseZeroCommand(
			'x',
			'---\r\ndescription: d\r\n---\r\nline1\r\nline2\r\n',
			origin,
		);
		assert.equal(parsed.description, 'd');
		assert.equal(parsed.template, 'line1\nline2');
	});

	it('UC:188 front matter only when the file starts with exactly "---\\n"', () => {
		for (const raw of [' ---\ndescription: d\n---\nbody', '---  \ndescription: d\n---\nbody']) {
			const parsed = parseZeroCommand('x', raw, origin);
			assert.equal(parsed.description, 'User command: /x', JSON.stringify(raw));
			assert.equal(parsed.template, raw.trim());
		}
	});

	it('UC:195-200 the closing line may carry spaces; without one there is no front matter', () => {
		assert.equal(
			parseZeroCommand('x', '---\ndescription: d\n  ---  \nbody', origin).template,
			'body',
		);
		const unclosed = parseZeroCommand('x', '---\ndescription: d\nbody', origin);
		assert.equal(unclosed.description, 'User command: /x');
		assert.equal(unclosed.template, '---\ndescription: d\nbody');
	});

	it('UC:203-211 keys match in any case, the first line wins, quotes are trimmed off both ends', () => {
		const parsed = parseZeroCommand(
			'x',
			"---\nDESCRIPTION: \"Quoted 'one'\"\ndescription: second\nmodel: ''m'\n---\nb",
			origin,
		);
		assert.equal(parsed.description, "Quoted 'one");
		assert.equal(parsed.model, 'm');
	});

	it('UC:204 "model:" is not read from a "models:" or "mode:" line', () => {
		const parsed = parseZeroCommand('x', '---\nmodels: a\nmode: plan\n---\nb', origin);
		assert.equal(parsed.model, '');
		assert.equal(parsed.agent, 'plan', 'UC:126-129 agent falls back to mode');
	});

	it('UC:131 the template is trimmed; UC:132-134 the default description names the command', () => {
		const parsed = parseZeroCommand('lint', '\n\n  run the linter  \n\n', origin);
		assert.equal(parsed.template, 'run the linter');
		assert.equal(parsed.description, 'User command: /lint');
	});

	it('UC:131 Go trims Go spaces: NEL yes, BOM no', () => {
		assert.equal(goTrimSpace('\u0085x\u00a0'), 'x');
		assert.equal(goTrimSpace('\ufeffx'), '\ufeffx');
		assert.deepEqual(goFields(' a\u2003b\u0085c\ufeffd '), ['a', 'b', 'c\ufeffd']);
	});

	it('UC:60-75 a project command shadows a user one of the same name; sorted by name', () => {
		const merged = mergeZeroCommands(
			[command('review', 'USER version', false), command('b', 'user b', false)],
			[command('review', 'PROJECT version'), command('a', 'project a')],
		);
		assert.deepEqual(
			merged.map((entry) => [entry.name, entry.template, entry.project]),
			[
				['a', 'project a', true],
				['b', 'user b', false],
				['review', 'PROJECT version', true],
			],
		);
	});
});

describe('zero user command expansion (UC:146-183)', () => {
	it('UC:175-177 $ARGUMENTS is the whole argument string, trimmed (UC:147)', () => {
		assert.equal(
			expandZeroCommand('Fix: $ARGUMENTS', '  the flaky  test '),
			'Fix: the flaky  test',
		);
	});

	it('UC:169-174 $1..$9 are whitespace-separated words', () => {
		assert.equal(expandZeroCommand('Release $1 ($2)', 'v1.2\tpatch'), 'Release v1.2 (patch)');
	});

	it('UC:148 no quoting: a quoted phrase is still split at its spaces', () => {
		assert.equal(expandZeroCommand('[$1] [$2]', '"a b" c'), '["a] [b"]');
	});

	it('UC:171-173 a missing positional argument is empty', () => {
		assert.equal(expandZeroCommand('Tag $1 then $2', 'only'), 'Tag only then ');
	});

	it('UC:169 one digit only: $10 is $1 followed by 0, and $0 stays', () => {
		assert.equal(expandZeroCommand('$10 $0', 'a b c d e f g h i j'), 'a0 $0');
	});

	it('UC:166-168 $$ is a literal $ (and $$1 is "$1", not an argument)', () => {
		assert.equal(expandZeroCommand('cost is $$5, $$1', 'x'), 'cost is $5, $1');
	});

	it('UC:160, 178-179 any other $ stays, also the last character and a lowercase $arguments', () => {
		assert.equal(expandZeroCommand('$HOME $arguments costs 5$', 'x'), '$HOME $arguments costs 5$');
	});

	it('UC:175 $ARGUMENTS is matched as a prefix: $ARGUMENTSX is the arguments then X', () => {
		assert.equal(expandZeroCommand('<$ARGUMENTSX>', 'a'), '<aX>');
	});

	it('UC:150-155 a template without $ gets the arguments after a blank line, or nothing', () => {
		assert.equal(expandZeroCommand('Just do it.', ''), 'Just do it.');
		assert.equal(expandZeroCommand('Do it.', ' now please '), 'Do it.\n\nnow please');
	});

	it('UC:150 a $ that is no placeholder still stops the arguments being appended', () => {
		assert.equal(expandZeroCommand('Costs 5$ each', 'ignored'), 'Costs 5$ each');
	});

	it('UC:175 a placeholder is not expanded inside an argument (no second pass)', () => {
		assert.equal(expandZeroCommand('$1 / $ARGUMENTS', '$2 $ARGUMENTS'), '$2 / $2 $ARGUMENTS');
	});
});

describe('typing a user command (TUI)', () => {
	const commands = [
		command('release', 'Release $1'),
		command('blank', '$1'),
		command('help', 'mine'),
	];

	it('TUI:52-64 "/Name  args" splits into the lowercased name and the trimmed rest', () => {
		assert.deepEqual(splitZeroCommandInput('  /Release   v1  two '), {
			name: 'release',
			args: 'v1  two',
		});
		assert.equal(splitZeroCommandInput('release v1'), undefined);
	});

	it('TUI:25-29 a known name expands with its arguments', () => {
		const resolved = resolveZeroCommand('/RELEASE v9', commands);
		assert.equal(resolved.kind, 'expanded');
		assert.equal(resolved.kind === 'expanded' && resolved.prompt, 'Release v9');
	});

	it('TUI:26-28 an unknown name is not a user command', () => {
		assert.deepEqual(resolveZeroCommand('/nope x', commands), { kind: 'none', reason: 'unknown' });
		assert.deepEqual(resolveZeroCommand('/', commands), { kind: 'none', reason: 'not-a-command' });
		assert.deepEqual(resolveZeroCommand('hi /release', commands), {
			kind: 'none',
			reason: 'not-a-command',
		});
	});

	it('TUI:30-32 an expansion that is blank is not sent', () => {
		assert.deepEqual(resolveZeroCommand('/blank', commands), { kind: 'none', reason: 'empty' });
	});

	it('commands.go:424-430 + skill_commands.go:13-16 a built-in name wins over a user command', () => {
		assert.deepEqual(resolveZeroCommand('/help me', commands), { kind: 'none', reason: 'builtin' });
		assert.deepEqual(resolveZeroCommand('/quit', commands), { kind: 'none', reason: 'builtin' });
	});
});

describe("the real zero's TUI (recorded)", () => {
	const dir = path.join(__dirname, '..', '..', 'fixtures', 'recorded', 'composer', 'tui');
	const cases = readdirSync(dir).filter((name) => name.endsWith('.json'));

	function commandsOf(files: Record<string, string>, project: boolean): ZeroUserCommand[] {
		return Object.entries(files).flatMap(([file, text]) => {
			const name = zeroCommandNameOf(file);
			return name === undefined ? [] : [parseZeroCommand(name, text, { project, path: file })];
		});
	}

	it('has the recorded cases', () => {
		assert.ok(cases.length >= 5, cases.join(','));
	});

	for (const file of cases) {
		it(`expands as zero's TUI did: ${file}`, () => {
			const recorded = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
				project: Record<string, string>;
				user: Record<string, string>;
				typed: string;
				modelRequests: number;
				requestModel: string | null;
				userMessage: string | null;
			};
			const commands = mergeZeroCommands(
				commandsOf(recorded.user, false),
				commandsOf(recorded.project, true),
			);
			const resolved: ZeroCommandResolution = resolveZeroCommand(recorded.typed, commands);
			if (recorded.userMessage === null) {
				// zero sent nothing: the typed name is one of its built-ins.
				assert.equal(recorded.modelRequests, 0);
				assert.deepEqual(resolved, { kind: 'none', reason: 'builtin' });
				return;
			}
			assert.equal(resolved.kind, 'expanded');
			assert.equal(resolved.kind === 'expanded' && resolved.prompt, recorded.userMessage);
			if (resolved.kind === 'expanded' && resolved.command.model !== '') {
				// The front matter's model is parsed, but zero v0.8.0's TUI does not switch to it.
				assert.notEqual(recorded.requestModel, resolved.command.model);
			}
		});
	}
});
