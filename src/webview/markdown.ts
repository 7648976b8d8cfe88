/**
 * Markdown for model text: markdown-it with raw HTML disabled, then DOMPurify, then links and code
 * blocks wired up. The CSP (no inline script, no remote content) stays the second line of defense.
 */
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdownLang from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';
import { setViewAction } from './viewActions';

for (const [name, language] of Object.entries({
	bash,
	css,
	diff,
	go,
	java,
	javascript,
	json,
	markdown: markdownLang,
	python,
	rust,
	shell,
	sql,
	typescript,
	xml,
	yaml,
})) {
	hljs.registerLanguage(name, language);
}
hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['rs'], { languageName: 'rust' });
hljs.registerAliases(['golang'], { languageName: 'go' });

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

const ALLOWED_SCHEMES = /^(https?:|mailto:|file:|#|\.{0,2}\/|[^:/?#]+(?:[/?#]|$))/i;

const SANITIZE = {
	ALLOWED_TAGS: [
		'a',
		'p',
		'br',
		'hr',
		'em',
		'strong',
		's',
		'del',
		'code',
		'pre',
		'blockquote',
		'ul',
		'ol',
		'li',
		'h1',
		'h2',
		'h3',
		'h4',
		'h5',
		'h6',
		'table',
		'thead',
		'tbody',
		'tr',
		'th',
		'td',
		'span',
	],
	ALLOWED_ATTR: ['href', 'title', 'class', 'start', 'align'],
	ALLOW_DATA_ATTR: false,
	ALLOWED_URI_REGEXP: ALLOWED_SCHEMES,
};

/** Markdown → sanitized HTML string. */
export function renderMarkdownHtml(text: string): string {
	return DOMPurify.sanitize(md.render(text), SANITIZE);
}

/** Renders markdown into a container: sanitized, links made safe, code blocks given a copy button. */
export function renderMarkdownInto(container: HTMLElement, html: string, highlight: boolean): void {
	container.innerHTML = html;
	for (const link of Array.from(container.querySelectorAll('a'))) {
		const href = link.getAttribute('href') ?? '';
		link.dataset.href = href;
		// Navigation is done by the host; the webview itself never follows a link.
		link.setAttribute('href', '#');
		link.setAttribute('title', href);
	}
	for (const pre of Array.from(container.querySelectorAll('pre'))) {
		const code = pre.querySelector('code');
		if (!code) {
			continue;
		}
		if (highlight) {
			highlightCode(code);
		}
		const button = document.createElement('button');
		button.className = 'copy-code icon-button';
		button.type = 'button';
		button.title = 'Copy code';
		button.setAttribute('aria-label', 'Copy code');
		setViewAction(button, { action: 'copy-code' });
		const glyph = document.createElement('span');
		glyph.className = 'codicon codicon-copy';
		button.appendChild(glyph);
		pre.classList.add('code-block');
		pre.appendChild(button);
	}
}

function highlightCode(code: HTMLElement): void {
	const language = /language-([\w-]+)/.exec(code.className)?.[1];
	if (!language || !hljs.getLanguage(language) || (code.textContent ?? '').length > 50_000) {
		return;
	}
	const result = hljs.highlight(code.textContent ?? '', { language, ignoreIllegals: true });
	// highlight.js escapes the source; sanitize anyway so only spans with classes survive.
	code.innerHTML = DOMPurify.sanitize(result.value, {
		ALLOWED_TAGS: ['span'],
		ALLOWED_ATTR: ['class'],
	});
}

/**
 * Where a streaming text can be split: the end of the last paragraph that is not inside a code
 * fence. Everything before it will not change as more text arrives, so it is rendered once.
 */
export function stableSplit(text: string): number {
	let inFence = false;
	let split = 0;
	let lineStart = 0;
	while (lineStart < text.length) {
		let lineEnd = text.indexOf('\n', lineStart);
		if (lineEnd === -1) {
			break;
		}
		const line = text.slice(lineStart, lineEnd);
		if (/^\s{0,3}(```|~~~)/.test(line)) {
			inFence = !inFence;
			if (!inFence) {
				split = lineEnd + 1;
			}
		} else if (!inFence && line.trim() === '' && lineStart > 0) {
			split = lineEnd + 1;
		}
		lineEnd += 1;
		lineStart = lineEnd;
	}
	return split;
}
