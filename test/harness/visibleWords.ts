/** zero's own terms (its statuses, session ids, store paths) that must not reach what a user reads. */
export const ZERO_INTERNAL_WORDS: readonly RegExp[] = [
	/run_end/,
	/paused_for_review/,
	/no_run_end/,
	/zero_\d{14}_/,
	/\.zero\/sessions/,
	/sessions\/zero_/,
];

/**
 * The words a user can see in a rendered transcript: text outside closed disclosures labelled
 * "Details" (the prompt's reads "Member · model · Details") and outside `skip`, plus every title
 * and aria-label. Self-contained, so that Playwright can run it in the page and jsdom in the unit
 * tier: it names no global but the node it is given.
 */
export function visibleWordsOf(root: Element, skip?: string): string {
	const TEXT_NODE = 3;
	const parts: string[] = [];
	const walk = (node: Node): void => {
		const element = node.nodeType === 1 ? (node as Element) : undefined;
		if (element?.nodeName === 'DETAILS' && !(element as HTMLDetailsElement).open) {
			const summary = element.querySelector(':scope > summary');
			if (summary && /(^|\u00b7 )Details$/.test(summary.textContent?.trim() ?? '')) {
				return;
			}
		}
		if (element && skip && element.matches(skip)) {
			return;
		}
		if (node.nodeType === TEXT_NODE) {
			parts.push(node.textContent ?? '');
			return;
		}
		for (const name of ['title', 'aria-label']) {
			const value = element?.getAttribute(name);
			if (value) {
				parts.push(` ${value} `);
			}
		}
		node.childNodes.forEach(walk);
	};
	walk(root);
	return parts.join('');
}
