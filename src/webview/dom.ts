/** Tiny DOM helpers; every string goes in as text, never as HTML. */

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | undefined | null | false;

export function h<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	attrs: Attrs = {},
	...children: Child[]
): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(attrs)) {
		if (value === undefined || value === false) {
			continue;
		}
		if (name === 'class') {
			element.className = String(value);
		} else {
			element.setAttribute(name, value === true ? '' : String(value));
		}
	}
	append(element, children);
	return element;
}

export function append(parent: Node, children: Child[]): void {
	for (const child of children) {
		if (child === undefined || child === null || child === false) {
			continue;
		}
		parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
	}
}

export function icon(name: string, label?: string): HTMLElement {
	const element = h('span', {
		class: `codicon codicon-${name}`,
		'aria-hidden': label ? undefined : 'true',
		'aria-label': label,
		role: label ? 'img' : undefined,
	});
	return element;
}

export function formatTokens(value: number): string {
	return value >= 10000 ? `${(value / 1000).toFixed(1)}k` : String(value);
}

export function formatDuration(ms: number): string {
	if (ms < 1000) {
		return `${Math.max(0, Math.round(ms))} ms`;
	}
	if (ms < 60000) {
		return `${(ms / 1000).toFixed(1)} s`;
	}
	return `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
}
