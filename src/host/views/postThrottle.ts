/**
 * How often a chat view is posted to: at most once per {@link FLUSH_MS}, so a burst of deltas costs
 * one postMessage per frame, while the first update after a quiet spell goes out at once (on the
 * next task, so what the same task adds joins it): the first answer text is not held back a frame.
 * No VS Code.
 */
export const FLUSH_MS = 16;

export class PostThrottle {
	private timer: NodeJS.Timeout | undefined;
	private lastFlushAt = Number.NEGATIVE_INFINITY;

	constructor(
		private readonly flush: () => void,
		private readonly clock: () => number = () => performance.now(),
	) {}

	/** Something is waiting to be posted: flush it as soon as the rate allows. */
	request(): void {
		this.timer ??= setTimeout(
			() => {
				this.timer = undefined;
				this.lastFlushAt = this.clock();
				this.flush();
			},
			Math.max(0, this.lastFlushAt + FLUSH_MS - this.clock()),
		);
	}

	cancel(): void {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
	}
}
