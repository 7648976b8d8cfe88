/**
 * The composer's controls that need no state of the composer: the permission mode and backend
 * selects, and reading a pasted or dropped image.
 */
import { CHAT_PERMISSION_MODES } from '../zero/protocol/permissionModes';
import { PERMISSION_MODE_INFO } from '../shared/permissionModes';
import type { ImageAttachment } from '../shared/protocol';
import { h } from './dom';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export function renderModeSelect(): HTMLSelectElement {
	const select = h('select', {
		class: 'mode-select',
		'aria-label': 'Permission mode',
		title: 'Permission mode for this chat',
	});
	for (const mode of CHAT_PERMISSION_MODES) {
		select.append(
			h(
				'option',
				{ value: mode, title: PERMISSION_MODE_INFO[mode].explanation },
				PERMISSION_MODE_INFO[mode].label,
			),
		);
	}
	return select;
}

export function renderBackendSelect(): HTMLSelectElement {
	return h(
		'select',
		{
			class: 'backend-select',
			'aria-label': 'How this chat runs zero',
			title: 'How this chat runs zero (from the next turn on)',
		},
		h(
			'option',
			{ value: 'exec', title: 'One zero exec per turn: token usage and checkpoints.' },
			'zero exec',
		),
		h(
			'option',
			{
				value: 'acp',
				title:
					'zero acp: approve or deny risky tool calls while zero waits. No token usage, no checkpoints.',
			},
			'Live approvals (zero acp)',
		),
	);
}

/** A pasted or dropped file as an image attachment, or why zero cannot take it. */
export async function readImageAttachment(file: File): Promise<ImageAttachment | string> {
	if (!IMAGE_TYPES.includes(file.type)) {
		return `${file.name || 'That file'} is not an image zero accepts (PNG, JPEG, GIF or WebP).`;
	}
	if (file.size > MAX_IMAGE_BYTES) {
		return `${file.name || 'The image'} is ${(file.size / 1048576).toFixed(1)} MiB; zero accepts images up to 10 MiB.`;
	}
	const data = await readBase64(file);
	return { name: file.name || `pasted.${file.type.slice(6)}`, mediaType: file.type, data };
}

function readBase64(file: File): Promise<string> {
	return new Promise((resolve, reject) => {
		const reader = new FileReader();
		reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
		reader.onerror = () => reject(reader.error ?? new Error('read failed'));
		reader.readAsDataURL(file);
	});
}
