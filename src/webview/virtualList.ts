/**
 * A virtualized vertical list: only rows near the viewport are in the DOM, the rest is represented
 * by two spacers. Row heights are measured with a ResizeObserver and estimated until then.
 *
 * Following new content is decided by what the user does, never by how far from the end a scroll
 * event lands (a trackpad tick moves 10-40 px, and a "near the bottom" band would pull the user
 * back): any upward wheel, key or scrollbar drag stops following, as does any other move up that
 * leaves the end (find, focus, a script), and only reaching the very end again (or
 * `scrollToBottom`, the jump-to-end control) resumes it.
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
	/** Called when the list starts or stops following new content. */
	followingChanged?(following: boolean): void;
}

interface Mounted {
	element: HTMLElement;
	signature: string;
}

/** At the end within rounding only: a fractional scrollTop never quite reaches scrollHeight. */
const END_SLACK_PX = 2;
/** Keys that scroll a focused scroller up (Shift+Space too). */
const UPWARD_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

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
	/** Where our own follow-the-end scroll put the view: its scroll event needs no new layout. */
	private programmaticTop: number | undefined;
	/** scrollTop at the last scroll while a pointer is down on the scrollbar or a finger moves. */
	private dragTop: number | undefined;
	private lastScrollTop = 0;
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
		this.listenForUserScrolls();
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

	get following(): boolean {
		return this.followBottom;
	}

	/** Keeps the view where it is (the user is looking at something, e.g. a card they expanded). */
	stopFollowing(): void {
		this.setFollowing(false);
	}

	/** Goes to the end and follows new content from there. */
	scrollToBottom(): void {
		this.setFollowing(true);
		this.goToEnd();
		this.schedule();
	}

	private setFollowing(following: boolean): void {
		if (this.followBottom !== following) {
			this.followBottom = following;
			this.options.followingChanged?.(following);
		}
	}

	private listenForUserScrolls(): void {
		const scroller = this.scroller;
		const passive = { passive: true };
		scroller.addEventListener(
			'wheel',
			(event) => event.deltaY < 0 && this.userScrolledUp(),
			passive,
		);
		scroller.addEventListener('keydown', (event) => {
			if (
				!isEditable(event.target) &&
				(UPWARD_KEYS.has(event.key) || (event.key === ' ' && event.shiftKey))
			) {
				this.userScrolledUp();
			}
		});
		// The scrollbar belongs to the scroller itself; a row's own content is another target.
		scroller.addEventListener('pointerdown', (event) => {
			if (event.target === scroller) {
				this.dragTop = scroller.scrollTop;
			}
		});
		scroller.addEventListener('touchstart', () => (this.dragTop = scroller.scrollTop), passive);
		const endDrag = (): void => {
			this.dragTop = undefined;
		};
		for (const type of ['pointerup', 'pointercancel', 'touchend', 'touchcancel']) {
			window.addEventListener(type, endDrag, passive);
		}
		scroller.addEventListener('scroll', () => this.onScroll(), passive);
	}

	private userScrolledUp(): void {
		// Nothing above to scroll to (a short chat): the user cannot leave the end.
		if (this.scroller.scrollTop > 0) {
			this.setFollowing(false);
		}
	}

	private onScroll(): void {
		const top = this.scroller.scrollTop;
		// Our own follow-the-end scroll: nothing new to lay out, and no word about the user's intent
		// (a passive wheel can scroll before its event reaches us, and our scroll then lands after it).
		const ours = this.programmaticTop !== undefined && Math.abs(top - this.programmaticTop) <= 1;
		this.programmaticTop = undefined;
		if (this.dragTop !== undefined) {
			if (top < this.dragTop) {
				this.setFollowing(false);
			}
			this.dragTop = top;
		}
		if (!ours) {
			if (this.followBottom && top < this.lastScrollTop && !this.isAtEnd()) {
				// Moved up by something we did not hear as a wheel, key or drag (find, focus moving to a
				// row above, a script): the user is elsewhere now. Content shrinking under the view
				// clamps scrollTop too, but leaves it at the end.
				this.setFollowing(false);
			} else if (!this.followBottom && top >= this.lastScrollTop && this.isAtEnd()) {
				// Back at the end, and not on the way up (a smooth scroll's first pixel up is near it).
				this.setFollowing(true);
			}
		}
		this.lastScrollTop = top;
		if (!ours) {
			this.schedule();
		}
	}

	/** Scrolls to the end (reads layout: only where it is fresh, or on a user's action). */
	private goToEnd(): void {
		const target = this.scroller.scrollHeight - this.scroller.clientHeight;
		if (Math.abs(this.scroller.scrollTop - target) > 1) {
			this.programmaticTop = target;
			this.scroller.scrollTop = target;
		}
	}

	private schedule(): void {
		this.frame ??= requestAnimationFrame(() => {
			this.frame = undefined;
			this.layout();
		});
	}

	private isAtEnd(): boolean {
		return (
			this.scroller.scrollTop + this.scroller.clientHeight >=
			this.scroller.scrollHeight - END_SLACK_PX
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
			this.goToEnd();
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

function isEditable(target: EventTarget | null): boolean {
	return (
		target instanceof HTMLElement &&
		(target.isContentEditable ||
			target instanceof HTMLInputElement ||
			target instanceof HTMLTextAreaElement)
	);
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
