import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
	filesExcludeMatcher,
	gitignoreDirsFor,
	gitignoreMatcher,
} from '../../../../src/host/mentions/ignoreRules';
import { compileGlob } from '../../../../src/host/mentions/globMatch';

const glob = (glob: string, options?: { braces?: boolean }) => ({
	test: compileGlob(glob, options),
});

describe('globs', () => {
	it('* and ? stay in one path part; ** crosses folders', () => {
		assert.ok(glob('*.js').test('a.js'));
		assert.ok(!glob('*.js').test('src/a.js'));
		assert.ok(glob('**/*.js').test('src/deep/a.js'));
		assert.ok(glob('**/*.js').test('a.js'), '**/ may match no folder');
		assert.ok(glob('a/**/b').test('a/b'));
		assert.ok(glob('a/**/b').test('a/x/y/b'));
		assert.ok(glob('out/**').test('out/x/y'));
		assert.ok(glob('?.md').test('a.md') && !glob('?.md').test('ab.md'));
	});

	it('classes, braces (files.exclude only) and escapes; regex characters are literal', () => {
		assert.ok(glob('[ab].txt').test('a.txt') && !glob('[ab].txt').test('c.txt'));
		assert.ok(glob('[!ab].txt').test('c.txt'));
		assert.ok(glob('*.{js,ts}', { braces: true }).test('x.ts'));
		assert.ok(!glob('*.{js,ts}').test('x.ts'), 'gitignore has no braces');
		assert.ok(glob('\\*.txt').test('*.txt') && !glob('\\*.txt').test('a.txt'));
		assert.ok(glob('a+(b).txt').test('a+(b).txt'));
		assert.ok(!glob('a.txt').test('abtxt'));
	});
});

describe('files.exclude', () => {
	const excluded = filesExcludeMatcher({
		'**/.git': true,
		'**/node_modules': true,
		'build/': false,
		secret: true,
		'**/*.{log,tmp}': true,
		'**/*.js': { when: '$(basename).ts' },
	});

	it('hides what a true glob matches, and everything below a hidden folder', () => {
		assert.ok(excluded('.git'));
		assert.ok(excluded('pkg/node_modules/x/index.js'));
		assert.ok(excluded('secret/key.pem'));
		assert.ok(excluded('logs/a.log'));
	});

	it('keeps what no true glob matches; "when" clauses and false entries are not applied', () => {
		assert.ok(!excluded('src/secret.txt'), 'a glob without **/ is relative to the folder');
		assert.ok(!excluded('src/a.js'));
		assert.ok(!excluded('build/x'));
		assert.ok(!filesExcludeMatcher(undefined)('a'));
		assert.ok(!filesExcludeMatcher('garbage')('a'));
	});
});

describe('.gitignore', () => {
	it('a name without a slash matches at any depth; a trailing slash only folders', () => {
		const ignored = gitignoreMatcher([{ dir: '', text: '*.log\nbuild/\n# comment\n\n' }]);
		assert.ok(ignored('a.log', false));
		assert.ok(ignored('deep/x/a.log', false));
		assert.ok(ignored('build', true));
		assert.ok(ignored('src/build/out.js', false), 'below an ignored folder');
		assert.ok(!ignored('build', false), 'a FILE named build is not ignored by build/');
		assert.ok(!ignored('# comment', false));
	});

	it('a slash anchors the pattern to its .gitignore folder', () => {
		const ignored = gitignoreMatcher([{ dir: '', text: '/dist\ndocs/*.html\n' }]);
		assert.ok(ignored('dist', true));
		assert.ok(!ignored('pkg/dist', true));
		assert.ok(ignored('docs/a.html', false));
		assert.ok(!ignored('docs/sub/a.html', false));
	});

	it('the last matching line wins and ! re-includes, but not below an ignored folder', () => {
		const ignored = gitignoreMatcher([
			{ dir: '', text: '*.env\n!example.env\nvendor/\n!vendor/keep.txt\n' },
		]);
		assert.ok(ignored('prod.env', false));
		assert.ok(!ignored('example.env', false));
		assert.ok(ignored('vendor/keep.txt', false));
	});

	it('a nested .gitignore applies below its folder and wins over the root', () => {
		const ignored = gitignoreMatcher([
			{ dir: 'pkg', text: '!important.log\nlocal.txt\n' },
			{ dir: '', text: '*.log\n' },
		]);
		assert.ok(!ignored('pkg/important.log', false));
		assert.ok(ignored('important.log', false));
		assert.ok(ignored('pkg/local.txt', false));
		assert.ok(!ignored('local.txt', false));
	});

	it('escapes: \\# and \\! start literal names; trailing spaces are dropped', () => {
		const ignored = gitignoreMatcher([{ dir: '', text: '\\#hash\n\\!bang\nspaced   \n' }]);
		assert.ok(ignored('#hash', false));
		assert.ok(ignored('!bang', false));
		assert.ok(ignored('spaced', false));
	});

	it('lists the folders whose .gitignore applies', () => {
		assert.deepEqual(gitignoreDirsFor('a/b/c.txt'), ['', 'a', 'a/b']);
		assert.deepEqual(gitignoreDirsFor('top.txt'), ['']);
	});
});

describe("a cloned repository's hostile patterns (#31 item 9)", () => {
	// Compiled to regular expressions these took hours (each star multiplies the backtracking);
	// matched by globMatch they take one step a character per token. The timeout only guards a hang.
	const hostile = [
		`${'*a'.repeat(20)}*b`,
		`**/${'*a'.repeat(20)}*b`,
		`x/${'**/'.repeat(30)}y`,
		`x/${'**/a/'.repeat(12)}**/y`,
		`${'[a]*'.repeat(20)}b`,
	];
	const names = ['a'.repeat(80), `x/${'a/'.repeat(60)}z`];

	it('a .gitignore of such lines answers for long names', { timeout: 60_000 }, () => {
		const ignored = gitignoreMatcher([{ dir: '', text: hostile.join('\n') }]);
		for (const name of names) {
			assert.equal(ignored(name, false), false, name);
		}
		assert.equal(ignored(`x/${'a/'.repeat(60)}y`, false), true, 'and still matches what it should');
	});

	it('files.exclude with such globs and braces answers too', { timeout: 60_000 }, () => {
		const excluded = filesExcludeMatcher(
			Object.fromEntries(hostile.map((pattern) => [`{${pattern},${pattern}}`, true])),
		);
		for (const name of names) {
			assert.equal(excluded(name), false, name);
		}
	});

	it('{a,b} alternatives are bounded: nested braces expand to at most 64 patterns', () => {
		const many = compileGlob('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}', { braces: true });
		assert.equal(many('aaaaaaaa'), true);
		assert.equal(many('bbbbbbbb'), false, 'past the 64th alternative nothing matches');
	});
});
