/**
 * A DOM for webview code under `node --test`: jsdom's window installed as the globals the webview
 * bundle sees in a browser. Import it first (module bodies run in import order), so DOMPurify finds
 * a window when markdown.ts loads.
 */
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!DOCTYPE html><html><body><div id="app"></div></body></html>', {
	url: 'https://webview.invalid/',
	pretendToBeVisual: true,
});
const globals = globalThis as unknown as Record<string, unknown>;
for (const name of [
	'window',
	'document',
	'Node',
	'Element',
	'HTMLElement',
	'DocumentFragment',
	'DOMParser',
	'NodeFilter',
	'navigator',
]) {
	if (!(name in globals) || name === 'navigator') {
		Object.defineProperty(globals, name, {
			value:
				name === 'window' ? dom.window : (dom.window as unknown as Record<string, unknown>)[name],
			configurable: true,
			writable: true,
		});
	}
}

export const webviewWindow = dom.window;
