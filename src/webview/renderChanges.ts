/** The change card under a turn: what it changed, whether zero can undo it, Review and Undo. */
import type { FileChange, TurnChangeSummary, UndoReport } from '../shared/changeSchema';
import { changedFilesOf } from '../shared/changeCounts';
import type { Turn } from '../shared/transcriptSchema';
import { h, icon } from './dom';
import type { RenderContext } from './renderContext';
import { actionAttrs } from './viewActions';
import { hunkBadge, restoreBadge, sourceBadge, sourceOf } from './changeBadges';

/** Rows a card lists; the review shows every file. */
const LISTED_FILES = 50;

const KIND_ICONS: Record<FileChange['kind'], string> = {
	created: 'diff-added',
	modified: 'diff-modified',
	deleted: 'diff-removed',
	changed: 'diff-modified',
	unchanged: 'circle-outline',
	unknown: 'question',
};

function lineTotals(files: readonly FileChange[]): {
	added: number;
	removed: number;
	exact: boolean;
} {
	let added = 0;
	let removed = 0;
	let exact = true;
	for (const file of files) {
		if (file.lines.kind === 'text') {
			added += file.lines.added;
			removed += file.lines.removed;
			exact &&= file.lines.exact;
		}
	}
	return { added, removed, exact };
}

function renderLines(file: FileChange): HTMLElement {
	switch (file.lines.kind) {
		case 'text':
			return h(
				'span',
				{
					class: 'change-lines',
					title: file.lines.exact
						? undefined
						: 'at least (the diff was too large to count exactly)',
				},
				h('span', { class: 'added' }, `+${file.lines.added}`),
				' ',
				h('span', { class: 'removed' }, `\u2212${file.lines.removed}`),
				file.lines.exact ? '' : '+',
			);
		case 'binary':
			return h('span', { class: 'change-lines binary' }, 'binary');
		case 'unknown':
			// Said in words: "changed, diff unavailable", never a bare "±?".
			return h(
				'span',
				{ class: 'change-lines unknown muted', title: file.lines.reason },
				'diff unavailable',
			);
	}
}

function renderFile(turn: Turn, file: FileChange, readOnly: boolean): HTMLElement {
	const name = readOnly
		? h('span', { class: 'change-path' }, file.path)
		: h(
				'a',
				{
					href: '#',
					class: 'change-path file-link',
					...actionAttrs({ action: 'changes-open', turn: turn.id, path: file.path }),
					title: `Show the diff of ${file.path}`,
				},
				file.path,
			);
	return h(
		'li',
		{
			class: `change-file kind-${file.kind}`,
			'data-path': file.path,
			'data-change': file.kind,
			'data-restore': file.restore.status,
			'data-lines': file.lines.kind,
			'data-resolution': file.resolution ?? '',
			'data-before-source': sourceOf(file) ?? '',
		},
		icon(KIND_ICONS[file.kind]),
		name,
		// The tools that changed it in the tooltip (and for screen readers), not on a line of its own.
		h(
			'span',
			{
				class: 'change-kind',
				title: file.tools.length > 0 ? `by ${file.tools.join(', ')}` : undefined,
			},
			file.kind === 'unknown' ? 'changed' : file.kind,
			file.tools.length > 0
				? h('span', { class: 'visually-hidden change-tools' }, ` by ${file.tools.join(', ')}`)
				: undefined,
		),
		renderLines(file),
		file.resolution
			? h(
					'span',
					{ class: `badge resolution resolution-${file.resolution}` },
					file.resolution === 'kept' ? 'kept' : 'put back',
				)
			: undefined,
		hunkBadge(file),
		sourceBadge(file),
		restoreBadge(file),
		!readOnly && hunksReviewable(file)
			? h(
					'button',
					{
						type: 'button',
						class: 'icon-button change-hunks',
						...actionAttrs({ action: 'changes-hunks', turn: turn.id, path: file.path }),
						title: `Review ${file.path} hunk by hunk in the editor (Keep or Undo each)`,
						'aria-label': `Review ${file.path} hunk by hunk`,
					},
					icon('list-selection'),
				)
			: undefined,
	);
}

/** A text file zero kept a copy of, as it was before the turn, that still exists. */
function hunksReviewable(file: FileChange): boolean {
	return (
		!file.outside &&
		file.before.kind === 'available' &&
		file.lines.kind === 'text' &&
		file.kind !== 'deleted' &&
		file.hunks?.every((state) => state !== 'pending') !== true
	);
}

function describeReport(report: UndoReport): string {
	const parts = [
		`zero restored ${report.restored} file${report.restored === 1 ? '' : 's'}, deleted ${report.deleted}, skipped ${report.skipped.length}${report.skipped.length > 0 ? ` (${report.skipped.join(', ')})` : ''}.`,
	];
	if (report.keptEdits.length > 0) {
		parts.push(`Your edits to ${report.keptEdits.join(', ')} were kept.`);
	}
	return parts.join(' ');
}

function timeOf(at: number): string {
	const date = new Date(at);
	return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

export function renderChanges(turn: Turn, context: RenderContext): HTMLElement {
	const changes = turn.changes as TurnChangeSummary;
	const files = changedFilesOf(changes);
	const total = files.length + (changes.omittedFiles ?? 0);
	const totals = lineTotals(files);
	const readOnly = context.isReadOnly();
	const running = context.isRunning?.() ?? false;
	const undone = turn.undone;
	// Every file back as it was (undone one by one, or put back by a fork): nothing left to undo.
	const allPutBack = files.length > 0 && files.every((file) => file.resolution === 'reverted');
	const unreviewed = !changes.reviewed && !undone && !allPutBack && files.length > 0;
	const header = h(
		'div',
		{ class: 'changes-header' },
		icon('diff'),
		h(
			'span',
			{ class: 'changes-title' },
			total === 0
				? 'No file changed'
				: `${total} file${total === 1 ? '' : 's'} ${allPutBack ? 'put back' : 'changed'}`,
		),
		totals.added + totals.removed > 0
			? h(
					'span',
					{ class: 'change-lines' },
					h('span', { class: 'added' }, `+${totals.added}`),
					' ',
					h('span', { class: 'removed' }, `\u2212${totals.removed}`),
				)
			: undefined,
		unreviewed
			? h(
					'span',
					{ class: 'badge unreviewed', title: 'You have not reviewed these changes yet' },
					'unreviewed',
				)
			: undefined,
		undone ? h('span', { class: 'badge undone-badge' }, 'undone') : undefined,
		h('span', { class: 'spacer' }),
		!readOnly && !undone && !allPutBack && files.length > 0
			? h(
					'button',
					{
						type: 'button',
						class: 'button secondary changes-review',
						...actionAttrs({ action: 'changes-review', turn: turn.id }),
						title:
							'Open these changes in the diff editor: before the turn on the left, the file now on the right',
					},
					icon('diff-multiple'),
					' Review',
				)
			: undefined,
		!readOnly && !undone && !allPutBack && changes.undo.kind === 'available'
			? h(
					'button',
					{
						type: 'button',
						class: 'button secondary changes-undo',
						...actionAttrs({ action: 'changes-undo', turn: turn.id }),
						// Refused while zero runs (the host refuses it too): really disabled, not dimmed.
						disabled: running,
						title: running
							? 'Undo waits until zero has finished running in this chat'
							: "Undo this turn and every later one with zero's rewind (you see the plan first)",
					},
					icon('discard'),
					' Undo\u2026',
				)
			: undefined,
	);
	const card = h(
		'div',
		{
			class: `row changes-card${undone ? ' undone' : ''}`,
			'data-kind': 'changes',
			'data-turn': turn.id,
			'data-reviewed': changes.reviewed ? 'true' : 'false',
			'data-undone': undone ? 'true' : 'false',
			role: 'group',
			'aria-label': `Files changed by this turn: ${total}`,
		},
		header,
	);
	if (files.length > 0) {
		card.append(
			h(
				'ul',
				{ class: 'changes-files' },
				...files.slice(0, LISTED_FILES).map((file) => renderFile(turn, file, readOnly)),
			),
		);
	}
	const more = total - Math.min(files.length, LISTED_FILES);
	if (more > 0) {
		card.append(
			h('div', { class: 'changes-note muted' }, `and ${more} more (Review shows every file)`),
		);
	}
	const fromBaseline = files.filter((file) => sourceOf(file) === 'baseline').length;
	if (fromBaseline > 0) {
		card.append(
			h(
				'div',
				{ class: 'changes-note muted before-sources' },
				icon('archive'),
				` Before-content: ${fromBaseline} file${fromBaseline === 1 ? '' : 's'} from the extension's baseline (changed by shell commands), the rest from zero's checkpoints.`,
			),
		);
	}
	if (changes.checkpointedUnchanged.length > 0) {
		card.append(
			h(
				'div',
				{ class: 'changes-note muted' },
				icon('info'),
				` Undo also rewrites ${changes.checkpointedUnchanged.join(', ')} (saved by a call that failed or was refused, unchanged).`,
			),
		);
	}
	if (undone) {
		card.append(
			h(
				'div',
				{ class: 'changes-note undone-note' },
				icon('discard'),
				undone.from === turn.id
					? ` Undone at ${timeOf(undone.at)}${undone.report ? `: ${describeReport(undone.report)}` : ''}`
					: ` Undone at ${timeOf(undone.at)} with an earlier turn.`,
			),
		);
	} else if (allPutBack) {
		card.append(
			h(
				'div',
				{ class: 'changes-note muted' },
				icon('discard'),
				' Every file is back as it was before this turn.',
			),
		);
	} else if (changes.undo.kind === 'unavailable') {
		card.append(
			h(
				'div',
				{ class: 'changes-note muted' },
				icon('circle-slash'),
				` Undo is not available: ${changes.undo.reason}.`,
			),
		);
	}
	return card;
}

export function estimateChangesHeight(turn: Turn): number {
	const files = turn.changes ? Math.min(changedFilesOf(turn.changes).length, LISTED_FILES) : 0;
	return 44 + files * 22;
}

export function renderReviewAllButton(files: number): HTMLElement {
	return h(
		'button',
		{
			type: 'button',
			class: 'link-button review-all',
			...actionAttrs({ action: 'changes-review-all' }),
			title: 'Review every file zero changed in this chat since it started',
		},
		icon('diff-multiple'),
		` ${files} file${files === 1 ? '' : 's'} changed`,
	);
}
