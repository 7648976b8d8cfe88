/**
 * At most `limit` pieces of work at once (zero processes started to watch specialists); the rest
 * wait their turn, first come first served. One gate serves the whole window, so whatever zero
 * streams in any chat, the number of processes started for it stays fixed.
 */
export class ProcessGate {
	private running = 0;
	private readonly waiting: (() => void)[] = [];

	constructor(readonly limit: number) {}

	async run<T>(work: () => Promise<T>): Promise<T> {
		if (this.running >= this.limit) {
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		} else {
			this.running++;
		}
		try {
			return await work();
		} finally {
			const next = this.waiting.shift();
			if (next) {
				next();
			} else {
				this.running--;
			}
		}
	}
}
