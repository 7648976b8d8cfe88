/**
 * The composer's lists: the attached context chips (a chip with a source opens it), the queued
 * messages and the directories added to every run. Each button says what it removes.
 */
import type { ImageAttachment } from '../shared/protocol';
import type { ContextChip } from '../shared/transcriptSchema';
import { h, icon } from './dom';
import { actionAttrs } from './viewActions';

export function renderQueue(queue: readonly string[]): HTMLElement[] {
	return queue.map((text, index) =>
		h(
			'div',
			{ class: 'queued' },
			icon('clock'),
			h('span', { class: 'queued-text' }, text || '(attachments only)'),
			h(
				'button',
				{
					type: 'button',
					class: 'icon-button',
					title: 'Remove from queue',
					'aria-label': 'Remove from queue',
					...actionAttrs({ action: 'queue-remove', index: String(index) }),
				},
				icon('close'),
			),
		),
	);
}

export function renderAddDirs(addDirs: readonly string[]): HTMLElement[] {
	return [
		...(addDirs.length > 0
			? [h('span', { class: 'add-dirs-label' }, 'zero may also write in:')]
			: []),
		...addDirs.map((dir) =>
			h(
				'span',
				{ class: 'chip chip-dir', title: `--add-dir=${dir} (kept for this chat)` },
				icon('folder'),
				h('span', { class: 'chip-text' }, dir),
				h(
					'button',
					{
						type: 'button',
						class: 'chip-remove',
						title: 'Stop adding this directory',
						'aria-label': `Stop adding ${dir}`,
						...actionAttrs({ action: 'add-dir-remove', dir }),
					},
					icon('close'),
				),
			),
		),
	];
}

export function renderContextChips(
	context: readonly ContextChip[],
	images: readonly ImageAttachment[],
): HTMLElement[] {
	return [
		...context.map((chip) =>
			h(
				'span',
				{
					class: `chip chip-${chip.kind}`,
					title: chip.note ? `${chip.label} (${chip.note})` : chip.label,
				},
				chip.path
					? h(
							'button',
							{
								type: 'button',
								class: 'chip-open link-button',
								title: `Open ${chip.label}`,
								...actionAttrs({
									action: 'open-file',
									path: chip.path,
									line: chip.line === undefined ? undefined : String(chip.line),
								}),
							},
							chip.label,
						)
					: chip.label,
				chip.note ? h('span', { class: 'chip-note' }, ` (${chip.note})`) : undefined,
				h(
					'button',
					{
						type: 'button',
						class: 'chip-remove',
						title: 'Remove',
						'aria-label': `Remove ${chip.label}`,
						...actionAttrs({ action: 'chip-remove', chip: chip.id }),
					},
					icon('close'),
				),
			),
		),
		...images.map((image, index) =>
			h(
				'span',
				{ class: 'chip chip-image' },
				icon('file-media'),
				` ${image.name}`,
				h(
					'button',
					{
						type: 'button',
						class: 'chip-remove',
						title: 'Remove',
						'aria-label': `Remove ${image.name}`,
						...actionAttrs({ action: 'chip-remove', chip: `image:${index}` }),
					},
					icon('close'),
				),
			),
		),
	];
}
