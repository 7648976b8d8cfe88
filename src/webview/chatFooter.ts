/**
 * The chat view's footer and the root's state attributes: the composer when zero is ready, the
 * setup state when it is not (which then takes the whole view), a note on a read-only transcript.
 */
import type { ComposerView, ReadinessView } from '../shared/protocol';
import type { Composer } from './composer';
import { h, icon } from './dom';
import { renderSetupState } from './setupState';

export interface FooterState {
	readiness: ReadinessView | undefined;
	composerView: ComposerView | undefined;
	readOnly: boolean;
	/** Whether the last turn waits on the user's answer to a live approval (asked for the composer). */
	waitingForYou: () => boolean;
}

export function renderFooter(
	root: HTMLElement,
	footer: HTMLElement,
	composer: Composer,
	state: FooterState,
): void {
	const { readiness, readOnly } = state;
	root.dataset.readiness = readiness?.state ?? 'unknown';
	// A setup state takes the whole view (the old transcript would make it a strip at the
	// bottom); "Checking…" is brief and leaves the transcript where it is.
	root.dataset.setup = String(
		!readOnly && readiness !== undefined && !['ready', 'checking'].includes(readiness.state),
	);
	if (readOnly) {
		footer.replaceChildren(
			h(
				'div',
				{ class: 'readonly-note muted' },
				icon('lock'),
				' Read-only transcript. Use Zero: Export Run as JSONL to save the exact lines.',
			),
		);
	} else if (readiness && readiness.state !== 'ready') {
		footer.replaceChildren(renderSetupState(readiness));
	} else {
		if (composer.element.parentElement !== footer) {
			footer.replaceChildren(composer.element);
		}
		if (state.composerView) {
			composer.update(state.composerView, state.waitingForYou());
		}
	}
	root.dataset.running = state.composerView?.running ? 'true' : 'false';
}
