/**
 * How many chats may run zero at once (`zero.maxConcurrentRuns`). A chat holds a slot from the
 * start of its run to its end; a chat that finds none free waits, first come first served, and is
 * woken when one ends. Each run is a zero process (or an ACP turn) with its own model requests:
 * the limit keeps a window from starting dozens by accident.
 */
export class RunSlots {
	private readonly holders = new Set<string>();
	private readonly waiting = new Map<string, () => void>();
	/** The chat being woken: it may take the slot ahead of the others. */
	private woken: string | undefined;

	constructor(private readonly limit: () => number) {}

	get running(): number {
		return this.holders.size;
	}

	get max(): number {
		return Math.max(1, Math.floor(this.limit()) || 1);
	}

	/** True when `chatId` may run now (it then holds a slot); otherwise `wake` is called once one is free. */
	tryAcquire(chatId: string, wake: () => void): boolean {
		if (this.holders.has(chatId)) {
			return true;
		}
		const first = this.waiting.size === 0 || this.woken === chatId || this.isFirstWaiter(chatId);
		if (this.holders.size < this.max && first) {
			this.waiting.delete(chatId);
			this.holders.add(chatId);
			return true;
		}
		this.waiting.set(chatId, wake);
		return false;
	}

	/** The run of `chatId` ended: the longest-waiting chat may start. */
	release(chatId: string): void {
		if (!this.holders.delete(chatId)) {
			return;
		}
		this.wakeNext();
	}

	/** `chatId` no longer waits (stopped, closed). */
	cancel(chatId: string): void {
		this.waiting.delete(chatId);
		this.wakeNext();
	}

	isWaiting(chatId: string): boolean {
		return this.waiting.has(chatId);
	}

	private isFirstWaiter(chatId: string): boolean {
		return this.waiting.keys().next().value === chatId;
	}

	private wakeNext(): void {
		// A woken chat with nothing left to send (its queue was emptied) passes its turn on.
		while (this.holders.size < this.max && this.woken === undefined) {
			const next = this.waiting.entries().next().value;
			if (!next) {
				return;
			}
			const [chatId, wake] = next;
			this.waiting.delete(chatId);
			this.woken = chatId;
			try {
				wake();
			} finally {
				this.woken = undefined;
			}
		}
	}
}
