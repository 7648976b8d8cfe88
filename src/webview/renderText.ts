/** Answer text (streamed markdown, re-rendering only the growing tail) and reasoning rows. */
import { h, icon } from './dom';
import { renderMarkdownHtml, renderMarkdownInto, stableSplit } from './markdown';
import { itemKey } from '../shared/transcript';
import { actionAttrs } from './viewActions';

const markdownCache = new Map<string, string>();

/**
 * Longest answer rendered as markdown. Beyond it the text is shown plain: a model can send
 * megabytes of links or emphasis, and formatting them would stall or crash the view.
 */
export const MARKDOWN_MAX_CHARS = 200_000;

function plainLongText(body: HTMLElement, text: string): void {
	body.append(
		h(
			'p',
			{ class: 'muted long-text-note' },
			`This answer has ${text.length.toLocaleString('en')} characters, too many to format, so it is shown as plain text.`,
		),
		h('pre', { class: 'long-text' }, text),
	);
}

function cachedMarkdown(text: string): string {
	let html = markdownCache.get(text);
	if (html === undefined) {
		html = renderMarkdownHtml(text);
		if (markdownCache.size > 200) {
			markdownCache.clear();
		}
		markdownCache.set(text, html);
	}
	return html;
}

export function renderText(
	text: string,
	streaming: boolean,
	turnId: string,
	itemId: string,
): HTMLElement {
	const body = h('div', { class: 'markdown' });
	const row = h(
		'div',
		{
			class: `row text-row${streaming ? ' streaming' : ''}`,
			'data-kind': 'text',
			'data-turn': turnId,
			'data-item': itemId,
		},
		body,
	);
	if (text.length > MARKDOWN_MAX_CHARS) {
		plainLongText(body, text);
	} else if (streaming) {
		// The settled prefix renders once; only the growing tail is re-rendered per frame.
		const split = stableSplit(text);
		const stable = h('div', { class: 'markdown-part stable' });
		renderMarkdownInto(stable, split > 0 ? cachedMarkdown(text.slice(0, split)) : '', false);
		const tail = h('div', { class: 'markdown-part tail' });
		renderMarkdownInto(tail, renderMarkdownHtml(text.slice(split)), false);
		body.append(stable, tail);
		row.dataset.split = String(split);
	} else {
		renderMarkdownInto(body, cachedMarkdown(text), true);
	}
	return row;
}

/** Re-renders only the tail of a streaming answer when its settled part did not move. */
export function updateStreamingText(element: HTMLElement, text: string): boolean {
	if (text.length > MARKDOWN_MAX_CHARS) {
		return false;
	}
	const split = stableSplit(text);
	const tail = element.querySelector<HTMLElement>('.markdown-part.tail');
	if (element.dataset.split !== String(split) || !tail) {
		return false;
	}
	renderMarkdownInto(tail, renderMarkdownHtml(text.slice(split)), false);
	return true;
}

/** How much zero reasoned, in a measure a reader knows: words (zero sends no reasoning times). */
export function reasoningMeasure(text: string): string {
	const words = text.split(/\s+/).filter((word) => word !== '').length;
	const count = words >= 1000 ? `${(words / 1000).toFixed(1)}k` : String(words);
	return ` \u00b7 ${count} word${words === 1 ? '' : 's'}`;
}

export function updateLiveReasoning(element: HTMLElement, text: string): boolean {
	const count = element.querySelector<HTMLElement>('.reasoning-count');
	if (!element.classList.contains('live') || !count) {
		return false;
	}
	count.textContent = reasoningMeasure(text);
	return true;
}

export function renderReasoning(
	text: string,
	streaming: boolean,
	expanded: boolean,
	turnId: string,
	itemId: string,
): HTMLElement {
	const key = itemKey(turnId, itemId);
	const header = h(
		'button',
		{
			class: 'reasoning-toggle',
			type: 'button',
			'aria-expanded': expanded ? 'true' : 'false',
			...actionAttrs({ action: 'toggle', key }),
		},
		icon(expanded ? 'chevron-down' : 'chevron-right'),
		icon(streaming ? 'loading' : 'lightbulb'),
		streaming ? ' Thinking\u2026' : ' Reasoning',
		h('span', { class: 'muted reasoning-count' }, reasoningMeasure(text)),
	);
	if (streaming) {
		header.querySelector('.codicon-loading')?.classList.add('codicon-modifier-spin');
	}
	return h(
		'div',
		{
			class: `row reasoning-row${streaming ? ' live' : ''}`,
			'data-kind': 'reasoning',
			'data-turn': turnId,
			'data-item': itemId,
		},
		header,
		expanded ? h('div', { class: 'reasoning-text' }, text) : undefined,
	);
}
