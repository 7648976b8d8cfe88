/**
 * A virtualized vertical list: only rows near the viewport are in the DOM, the rest is represented
 * by two spacers. Row heights are measured with a ResizeObserver and estimated until then. While
 * the user is at the bottom, the list follows new content; otherwise the view stays put.
 *
 * Layout never reads geometry after writing the DOM in the same frame (that would force a
 * synchronous layout): sizes come from the ResizeObserver, which runs after the browser's own
 * layout, and following the bottom happens there too.
 */

export interface VirtualRow {
	key: string;
}

export interface VirtualListOptions<T extends VirtualRow> {
	estimateHeight(row: T): number;
	signature(row: T): string;
	/** Renders a row; it may update and return `previous` instead of building a new element. */
	render(row: T, previous: HTMLElement | undefined): HTMLElement;
	/** Pixels rendered above and below the viewport. */
	overscan?: number;
}

interface Mounted {
	element: HTMLElement;
	signature: string;
}

const BOTTOM_SLACK_PX = 32;

export class VirtualList<T extends VirtualRow> {
	private rows: T[] = [];
	private rowsProvider: (() => T[]) | undefined;
	private readonly heights = new Map<string, number>();
	private readonly mounted = new Map<string, Mounted>();
	private readonly topSpacer = document.createElement('div');
	private readonly bottomSpacer = document.createElement('div');
	private readonly body = document.createElement('div');
	private readonly resizeObserver: ResizeObserver;
	private frame: number | undefined;
	private followBottom = true;
	private programmaticScroll = false;
	private viewportHeight = 0;

	constructor(
		private readonly scroller: HTMLElement,
		private readonly options: VirtualListOptions<T>,
	) {
		this.topSpacer.className = 'vl-spacer';
		this.bottomSpacer.className = 'vl-spacer';
		this.body.className = 'vl-body';
		scroller.append(this.topSpacer, this.body, this.bottomSpacer);
		this.resizeObserver = new ResizeObserver((entries) => this.onResize(entries));
		// The spacers change when rows far from the viewport are measured; the scroll height with them.
		for (const element of [scroller, this.topSpacer, this.body, this.bottomSpacer]) {
			this.resizeObserver.observe(element);
		}
		scroller.addEventListener(
			'scroll',
			() => {
				if (this.programmaticScroll) {
					// Our own follow-the-bottom scroll: nothing new to lay out.
					this.programmaticScroll = false;
					return;
				}
				this.followBottom = this.isAtBottom();
				this.schedule();
			},
			{ passive: true },
		);
	}

	/** Number of row elements currently in the DOM. */
	get mountedCount(): number {
		return this.mounted.size;
	}

	/** The rows are rebuilt by `provider` on the next frame (many updates, one rebuild). */
	invalidateRows(provider: () => T[]): void {
		this.rowsProvider = provider;
		this.schedule();
	}

	/** Re-renders one mounted row (or all) on the next frame, e.g. after an expand toggle. */
	invalidate(key?: string): void {
		for (const [mountedKey, mounted] of this.mounted) {
			if (key === undefined || key === mountedKey) {
				mounted.signature = '';
			}
		}
		this.schedule();
	}

	/** Keeps the view where it is (the user is looking at something, e.g. a card they expanded). */
	stopFollowing(): void {
		this.followBottom = false;
	}

	scrollToBottom(): void {
		this.followBottom = true;
		this.schedule();
	}

	private schedule(): void {
		this.frame ??= requestAnimationFrame(() => {
			this.frame = undefined;
			this.layout();
		});
	}

	private isAtBottom(): boolean {
		return (
			this.scroller.scrollTop + this.scroller.clientHeight >=
			this.scroller.scrollHeight - BOTTOM_SLACK_PX
		);
	}

	private onResize(entries: ResizeObserverEntry[]): void {
		let changed = false;
		for (const entry of entries) {
			const target = entry.target as HTMLElement;
			if (target === this.scroller) {
				this.viewportHeight = entry.contentRect.height;
				changed = true;
				continue;
			}
			const key = target.dataset.key;
			if (key) {
				const height = entry.borderBoxSize?.[0]?.blockSize ?? target.offsetHeight;
				if (height > 0 && this.heights.get(key) !== height) {
					this.heights.set(key, height);
					changed = true;
				}
			}
		}
		if (this.followBottom) {
			// Layout is fresh here, so reading scrollHeight costs nothing.
			const target = this.scroller.scrollHeight - this.scroller.clientHeight;
			if (Math.abs(this.scroller.scrollTop - target) > 1) {
				this.programmaticScroll = true;
				this.scroller.scrollTop = target;
			}
		}
		if (changed) {
			this.schedule();
		}
	}

	private heightOf(row: T): number {
		return this.heights.get(row.key) ?? this.options.estimateHeight(row);
	}

	private layout(): void {
		if (this.rowsProvider) {
			this.rows = this.rowsProvider();
			this.rowsProvider = undefined;
		}
		const rows = this.rows;
		const overscan = this.options.overscan ?? 800;
		const offsets = new Float64Array(rows.length + 1);
		for (let i = 0; i < rows.length; i++) {
			offsets[i + 1] = offsets[i] + this.heightOf(rows[i]);
		}
		const total = offsets[rows.length];
		const viewport = this.viewportHeight || 600;
		const scrollTop = this.followBottom ? Math.max(0, total - viewport) : this.scroller.scrollTop;
		const first = Math.max(0, lowerBound(offsets, scrollTop - overscan) - 1);
		const last = Math.min(rows.length, lowerBound(offsets, scrollTop + viewport + overscan) + 1);

		const wanted = new Set<string>();
		const elements: HTMLElement[] = [];
		for (let i = first; i < last; i++) {
			const row = rows[i];
			wanted.add(row.key);
			const signature = this.options.signature(row);
			let mounted = this.mounted.get(row.key);
			if (!mounted || mounted.signature !== signature) {
				const element = this.options.render(row, mounted?.element);
				element.dataset.key = row.key;
				if (mounted && mounted.element !== element) {
					this.resizeObserver.unobserve(mounted.element);
					mounted.element.replaceWith(element);
					this.resizeObserver.observe(element);
				} else if (!mounted) {
					this.resizeObserver.observe(element);
				}
				mounted = { element, signature };
				this.mounted.set(row.key, mounted);
			}
			elements.push(mounted.element);
		}
		for (const [key, mounted] of this.mounted) {
			if (!wanted.has(key)) {
				this.resizeObserver.unobserve(mounted.element);
				mounted.element.remove();
				this.mounted.delete(key);
			}
		}
		// Put the window's elements in order, moving only those that are out of place.
		let cursor: ChildNode | null = this.body.firstChild;
		for (const element of elements) {
			if (element === cursor) {
				cursor = cursor.nextSibling;
			} else {
				this.body.insertBefore(element, cursor);
			}
		}
		this.topSpacer.style.height = `${offsets[first]}px`;
		this.bottomSpacer.style.height = `${total - offsets[last]}px`;
	}
}

/** First index whose offset is >= value. */
function lowerBound(offsets: Float64Array, value: number): number {
	let low = 0;
	let high = offsets.length - 1;
	while (low < high) {
		const mid = (low + high) >> 1;
		if (offsets[mid] < value) {
			low = mid + 1;
		} else {
			high = mid;
		}
	}
	return low;
}
