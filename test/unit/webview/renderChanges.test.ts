import './domEnv';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FileChange, TurnChangeSummary } from '../../../src/shared/changeSchema';
import type { Turn } from '../../../src/shared/transcriptSchema';
import {
	collectFileTouches,
	computeTurnChanges,
	type FileFacts,
} from '../../../src/host/changes/turnChanges';
import { renderChanges } from '../../../src/webview/renderChanges';
import { rowSignature } from '../../../src/webview/rowKinds/rowTable';
import { renderContext } from './viewAnswers';
import { changeSummary, restorableFile } from '../changeFixtures';

const context = renderContext({ toolDetails: () => 'loading' });

const STORE = '/home/u/.local/share/zero/sessions/zero_20261201_1_1/checkpoints/3/blobs/9f';

/** A turn whose write_file created NOTES.md, with the facts the host could read. */
function cardOf(facts: FileFacts): HTMLElement {
	const items = [
		{
			kind: 'tool' as const,
			id: 'w',
			name: 'write_file',
			args: { path: 'NOTES.md' },
			sideEffect: 'write',
			checkpoint: { sequence: 3, tool: 'write_file', files: ['NOTES.md'] },
			result: { status: 'ok' as const, changedFiles: ['NOTES.md'] },
		},
	];
	const { files, checkpointedUnchanged } = computeTurnChanges(
		collectFileTouches(items as never),
		() => facts,
	);
	const summary: TurnChangeSummary = {
		files: files as FileChange[],
		checkpointedUnchanged,
		undo: { kind: 'available' },
		reviewed: false,
	};
	const turn = { id: 't1', changes: summary } as unknown as Turn;
	return renderChanges(turn, context);
}

describe('the change card', () => {
	it('says "changed, diff unavailable" when zero\u2019s saved copy cannot be read, never "deleted ±?"', () => {
		for (const now of [
			{ kind: 'missing' as const },
			{ kind: 'unknown' as const, reason: `EACCES ${STORE}` },
		]) {
			const card = cardOf({
				before: { kind: 'unavailable', reason: `ENOENT: open '${STORE}'` },
				now,
			});
			const row = card.querySelector<HTMLElement>('.change-file');
			assert.ok(row);
			assert.equal(row.querySelector('.change-kind')?.firstChild?.textContent, 'changed');
			assert.equal(row.querySelector('.change-lines')?.textContent, 'diff unavailable');
			assert.doesNotMatch(card.textContent ?? '', /deleted|\u00b1\?/);
		}
	});

	it('no path of zero\u2019s store or raw error anywhere in the card (text or tooltips)', () => {
		const card = cardOf({
			before: { kind: 'unavailable', reason: `sha256 mismatch in ${STORE}` },
			now: { kind: 'file', sha256: 'x', size: 1, text: 'n' },
		});
		const everything = [
			card.textContent ?? '',
			...[...card.querySelectorAll('[title]')].map(
				(element) => element.getAttribute('title') ?? '',
			),
		].join('\n');
		assert.doesNotMatch(
			everything,
			/\.local\/share|sessions\/|checkpoints\/|blobs|sha256 mismatch/,
		);
		assert.match(everything, /zero's saved copy could not be read/);
	});

	it('the tools that changed a file sit in its tooltip, not in a visible column of their own', () => {
		const card = cardOf({
			before: { kind: 'absent' },
			now: { kind: 'file', sha256: 'x', size: 2, text: 'n\n' },
		});
		const kind = card.querySelector<HTMLElement>('.change-file .change-kind');
		assert.equal(kind?.title, 'by write_file');
		assert.equal(kind?.querySelector('.visually-hidden')?.textContent, ' by write_file');
		assert.equal(card.querySelector('.change-file > .change-tools'), null);
	});
});

/** A turn whose write_file created NOTES.md (still there), each file with `resolution`. */
function createdTurn(resolution?: FileChange['resolution']): Turn {
	const facts: FileFacts = {
		before: { kind: 'absent' },
		now: { kind: 'file', sha256: 'x', size: 2, text: 'n\n' },
	};
	const items = [
		{
			kind: 'tool' as const,
			id: 'w',
			name: 'write_file',
			args: { path: 'NOTES.md' },
			checkpoint: { sequence: 3, tool: 'write_file', files: ['NOTES.md'] },
			result: { status: 'ok' as const, changedFiles: ['NOTES.md'] },
		},
	];
	const { files } = computeTurnChanges(collectFileTouches(items as never), () => facts);
	return {
		id: 't1',
		run: { phase: 'ended' },
		changes: changeSummary(
			files.map((file) => ({ ...file, ...(resolution ? { resolution } : {}) })),
		),
	} as unknown as Turn;
}

describe('a change card whose files went back (#36)', () => {
	const putBackCard = (resolution?: FileChange['resolution']) =>
		renderChanges(createdTurn(resolution), context);

	it('after Fork Here, Put Files Back: no "unreviewed", no Undo, says every file is back', () => {
		const card = putBackCard('reverted');
		assert.equal(card.querySelector('.badge.unreviewed'), null);
		assert.equal(card.querySelector('button.changes-undo'), null);
		assert.equal(card.querySelector('.badge.resolution')?.textContent, 'put back');
		assert.match(card.textContent ?? '', /Every file is back as it was before this turn\./);
		assert.equal(card.querySelector('.changes-title')?.textContent, '1 file put back');
		assert.equal(card.querySelector('button.changes-review'), null);
	});

	it('offers the hunk review on a text file with a saved copy, and shows its hunks\u2019 states', () => {
		const modified = (hunks?: FileChange['hunks']): HTMLElement => {
			const turn = {
				id: 't1',
				changes: changeSummary(
					[
						restorableFile({
							path: 'src/a.js',
							kind: 'modified',
							tools: ['edit_file'],
							lines: { kind: 'text', added: 2, removed: 2, exact: true },
							...(hunks ? { hunks } : {}),
						}),
					],
					{ reviewed: true },
				),
			} as unknown as Turn;
			return renderChanges(turn, context);
		};
		const fresh = modified();
		assert.equal(fresh.querySelectorAll('button.change-hunks').length, 1);
		assert.equal(fresh.querySelector('.hunk-states'), null);
		const mixed = modified(['undone', 'pending']);
		assert.equal(
			mixed.querySelector('.hunk-states')?.textContent,
			'2 hunks: 1 undone, 1 to review',
		);
		assert.equal(mixed.querySelectorAll('button.change-hunks').length, 1);
		const done = modified(['undone', 'kept']);
		assert.equal(done.querySelector('.hunk-states')?.textContent, '2 hunks: 1 undone, 1 kept');
		assert.equal(done.querySelectorAll('button.change-hunks').length, 0, 'nothing left to review');
		// The card is drawn again when a hunk's state changes: its row's signature says so.
		const signature = (hunks?: FileChange['hunks']) => {
			const turn = {
				id: 't1',
				run: { phase: 'ended', items: [] },
				changes: {
					files: [{ path: 'a', resolution: undefined, ...(hunks ? { hunks } : {}) }],
					undo: { kind: 'available' },
				},
			} as unknown as Turn;
			return rowSignature({ kind: 'changes' as const, key: 't1:changes', turn }, false, '');
		};
		assert.notEqual(signature(['pending', 'pending']), signature(['undone', 'pending']));
		assert.notEqual(signature(), signature(['pending']));
		// A shell-changed file has no copy from before: no hunk review.
		const shell = cardOf({
			before: { kind: 'none' },
			now: { kind: 'file', sha256: 'a'.repeat(64), size: 3, text: 'new' },
		});
		assert.equal(shell.querySelectorAll('button.change-hunks').length, 0);
	});

	it('says where each file\u2019s before-content came from: zero\u2019s checkpoint or the extension\u2019s baseline (#33)', () => {
		const file = (path: string, tool: string, beforeSource?: 'baseline'): FileChange =>
			restorableFile({
				path,
				kind: 'modified',
				tools: [tool],
				lines: { kind: 'text', added: 1, removed: 1, exact: true },
				...(beforeSource ? { beforeSource } : {}),
			});
		const turn = {
			id: 't1',
			changes: changeSummary(
				[file('src/a.js', 'edit_file'), file('src/gen.js', 'bash', 'baseline')],
				{ reviewed: true },
			),
		} as unknown as Turn;
		const card = renderChanges(turn, context);
		const row = (path: string) =>
			card.querySelector<HTMLElement>(`.change-file[data-path="${path}"]`);
		assert.equal(row('src/a.js')?.dataset.beforeSource, 'checkpoint');
		assert.equal(row('src/a.js')?.querySelector('.before-source'), null);
		assert.match(row('src/a.js')?.textContent ?? '', /before-content from zero's checkpoint/);
		assert.equal(row('src/gen.js')?.dataset.beforeSource, 'baseline');
		assert.match(
			row('src/gen.js')?.querySelector('.before-source')?.textContent ?? '',
			/^ baseline/,
		);
		assert.match(
			card.querySelector('.before-sources')?.textContent ?? '',
			/1 file from the extension's baseline \(changed by shell commands\), the rest from zero's checkpoints/,
		);
		// Shell-changed and not covered: no before-content, so no source is claimed.
		const shell = cardOf({
			before: { kind: 'none' },
			now: { kind: 'file', sha256: 'a'.repeat(64), size: 3, text: 'new' },
		});
		assert.equal(shell.querySelector<HTMLElement>('.change-file')?.dataset.beforeSource, '');
		assert.equal(shell.querySelector('.before-sources'), null);
	});

	it('a card with its files still changed keeps Undo and "unreviewed"', () => {
		const card = putBackCard(undefined);
		assert.ok(card.querySelector('.badge.unreviewed'));
		assert.ok(card.querySelector('button.changes-undo'));
	});
});

describe('Undo while zero runs (#36, #31 item 14)', () => {
	it('is disabled, not only dimmed: the host refuses it, and axe skips only real disabled controls', () => {
		const turn = createdTurn();
		const idle = renderChanges(turn, { ...context, isRunning: () => false });
		assert.equal(idle.querySelector<HTMLButtonElement>('button.changes-undo')?.disabled, false);
		const running = renderChanges(turn, { ...context, isRunning: () => true });
		const undo = running.querySelector<HTMLButtonElement>('button.changes-undo');
		assert.equal(undo?.disabled, true);
		assert.match(undo?.title ?? '', /waits until zero has finished/);
		// The card is drawn again when a run starts or ends: its row's signature says so.
		const row = { kind: 'changes' as const, key: 't1:changes', turn };
		assert.notEqual(rowSignature(row, false, 'r'), rowSignature(row, false, ''));
	});
});
