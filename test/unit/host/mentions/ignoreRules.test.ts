import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
	filesExcludeMatcher,
	gitignoreDirsFor,
	gitignoreMatcher,
	globToRegExp,
} from '../../../../src/host/mentions/ignoreRules';

describe('globs', () => {
	it('* and ? stay in one path part; ** crosses folders', () => {
		assert.ok(globToRegExp('*.js').test('a.js'));
		assert.ok(!globToRegExp('*.js').test('src/a.js'));
		assert.ok(globToRegExp('**/*.js').test('src/deep/a.js'));
		assert.ok(globToRegExp('**/*.js').test('a.js'), '**/ may match no folder');
		assert.ok(globToRegExp('a/**/b').test('a/b'));
		assert.ok(globToRegExp('a/**/b').test('a/x/y/b'));
		assert.ok(globToRegExp('out/**').test('out/x/y'));
		assert.ok(globToRegExp('?.md').test('a.md') && !globToRegExp('?.md').test('ab.md'));
	});

	it('classes, braces (files.exclude only) and escapes; regex characters are literal', () => {
		assert.ok(globToRegExp('[ab].txt').test('a.txt') && !globToRegExp('[ab].txt').test('c.txt'));
		assert.ok(globToRegExp('[!ab].txt').test('c.txt'));
		assert.ok(globToRegExp('*.{js,ts}', { braces: true }).test('x.ts'));
		assert.ok(!globToRegExp('*.{js,ts}').test('x.ts'), 'gitignore has no braces');
		assert.ok(globToRegExp('\\*.txt').test('*.txt') && !globToRegExp('\\*.txt').test('a.txt'));
		assert.ok(globToRegExp('a+(b).txt').test('a+(b).txt'));
		assert.ok(!globToRegExp('a.txt').test('abtxt'));
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
