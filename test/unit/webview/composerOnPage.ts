/** A composer on the jsdom page, in a state a test chooses (the defaults: an idle exec chat). */
import type { ComposerView } from '../../../src/shared/protocol';
import { Composer } from '../../../src/webview/composer';
import { idleComposer } from '../helpers';

export function composerView(overrides: Partial<ComposerView> = {}): ComposerView {
	return idleComposer({ permissionMode: 'auto', backend: 'exec', ...overrides });
}

/** A composer alone on the page, showing `state`. */
export function composerWith(state: ComposerView = composerView()): Composer {
	const composer = new Composer({ draftChanged: () => undefined, showError: () => undefined }, '');
	document.body.replaceChildren(composer.element);
	composer.update(state);
	return composer;
}
