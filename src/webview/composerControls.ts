/**
 * The composer's controls that need no state of the composer: the Mode menu's items, the context
 * meter, and reading a pasted or dropped image.
 */
import { traitsOf } from '../shared/backendTraits';
import { CHAT_PERMISSION_MODES } from '../zero/protocol/permissionModes';
import { PERMISSION_MODE_INFO } from '../shared/permissionModes';
import type { ComposerMeterView, ComposerView, ImageAttachment } from '../shared/protocol';
import { h } from './dom';
import type { PopupItem } from './popupList';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The Mode menu's id for live approvals; every other id is an exec permission mode. */
export const LIVE_APPROVALS_ID = 'acp';

const LIVE_APPROVALS = {
	label: 'Ask me before risky actions',
	short: 'Live approvals',
	description:
		'Live approvals (zero acp): zero asks on the tool card and waits for your answer. No token usage or checkpoints in this mode.',
};

/** The Mode menu: the exec permission modes, then live approvals (the backend choice). */
export function modeMenuItems(view: ComposerView): PopupItem[] {
	const acp = traitsOf(view.backend).liveApprovals;
	return [
		...CHAT_PERMISSION_MODES.map((mode) => ({
			id: mode,
			group: 'zero runs each message on its own (zero exec)',
			label: PERMISSION_MODE_INFO[mode].label,
			description: PERMISSION_MODE_INFO[mode].explanation,
			checked: !acp && view.permissionMode === mode,
		})),
		{
			id: LIVE_APPROVALS_ID,
			group: 'zero waits for you (zero acp)',
			label: LIVE_APPROVALS.label,
			description: LIVE_APPROVALS.description,
			checked: acp,
		},
	];
}

/** The mode's menu label, the short one the button shows at 300 px, and its explanation. */
export function modeOf(view: ComposerView): {
	id: string;
	label: string;
	short: string;
	description: string;
} {
	if (!traitsOf(view.backend).permissionModes) {
		return { id: LIVE_APPROVALS_ID, ...LIVE_APPROVALS };
	}
	const info = PERMISSION_MODE_INFO[view.permissionMode];
	return {
		id: view.permissionMode,
		label: info.label,
		short: info.short,
		description: info.explanation,
	};
}

/** The context meter's button and the lines it shows and hides on click. */
export function createMeter(): [HTMLButtonElement, HTMLElement] {
	const button = h('button', { type: 'button', 'aria-expanded': 'false' });
	const details = h('div', {
		class: 'meter-details',
		role: 'group',
		'aria-label': 'Context in use',
	});
	details.hidden = true;
	button.addEventListener('click', () => {
		details.hidden = !details.hidden;
		button.setAttribute('aria-expanded', String(!details.hidden));
	});
	return [button, details];
}

/** The context meter: a small bar and its label; the tooltip lines are its title and details. */
export function renderMeter(
	button: HTMLButtonElement,
	details: HTMLElement,
	meter: ComposerMeterView | undefined,
): void {
	details.replaceChildren(...(meter?.tooltip ?? []).map((line) => h('div', {}, line)));
	const shown = meter ?? { label: 'context unknown', level: 'none' as const, tooltip: [] };
	button.dataset.level = shown.level;
	button.className = `context-meter meter-${shown.level}`;
	button.title = shown.tooltip.join('\n');
	button.setAttribute('aria-label', `Context ${shown.label}`);
	const fill = h('span', { class: 'meter-fill' });
	fill.style.width = `${Math.round(Math.min(1, Math.max(0, shown.fraction ?? 0)) * 100)}%`;
	button.replaceChildren(
		h('span', { class: 'meter-bar', 'aria-hidden': 'true' }, fill),
		h('span', { class: 'meter-label' }, shown.label),
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
