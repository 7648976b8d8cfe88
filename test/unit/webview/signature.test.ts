/**
 * signatureOf on its own: the shapes a row's inputs take (rowSignatures.test.ts checks the inputs
 * each kind hands it against its renderer). Equal inputs give equal signatures; every change a
 * transcript goes through in use gives another.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signatureOf } from '../../../src/webview/rowKinds/signature';

function differ(a: unknown, b: unknown): void {
	assert.notEqual(
		signatureOf([a]),
		signatureOf([b]),
		`${JSON.stringify(a)} vs ${JSON.stringify(b)}`,
	);
}

describe('signatureOf', () => {
	it('is the same for equal inputs, whatever their identity', () => {
		const make = () => ({ kind: 'tool', args: { path: 'a.ts', lines: [1, 2] }, done: true });
		assert.equal(signatureOf([make(), 3, 'x']), signatureOf([make(), 3, 'x']));
	});

	it('leaves out undefined fields (an absent field and an undefined one read the same)', () => {
		assert.equal(signatureOf([{ a: 1, b: undefined }]), signatureOf([{ a: 1 }]));
	});

	it('tells nesting apart', () => {
		differ({ a: { b: 1 }, c: 2 }, { a: { b: 1, c: 2 } });
		differ([[1], 2], [[1, 2]]);
		differ({ a: [] }, { a: {} });
		differ([], [undefined]);
		differ(null, undefined);
	});

	it('tells values of other types and numbers apart', () => {
		differ('1', 1);
		differ(true, 1);
		differ(0.5, 0.25);
		differ(2 ** 31, 0);
		differ(-1, 4294967295);
		differ(Number.NaN, 0);
		differ(1, 2);
	});

	it('changes when a short string is replaced by one of the same length', () => {
		differ({ state: 'waiting' }, { state: 'allowed' });
		differ('x'.repeat(256), `${'x'.repeat(255)}y`);
	});

	it('changes when a long text grows, at its head, middle or tail', () => {
		const text = 'lorem ipsum '.repeat(400);
		differ(text, `${text}.`);
		differ(text, `X${text.slice(1)}`);
		differ(text, `${text.slice(0, -1)}X`);
		const middle = text.length >> 1;
		differ(text, `${text.slice(0, middle)}X${text.slice(middle + 1)}`);
	});

	it('changes when a key is renamed or fields are reordered to other keys', () => {
		differ({ a: 1 }, { b: 1 });
		differ({ a: 1, b: 2 }, { a: 2, b: 1 });
	});
});
