/**
 * A chat's claim on a run slot under `zero.maxConcurrentRuns`: taken at once when one is free, or
 * waited for (said once) until another chat's run ends. No VS Code.
 */
import type { Messages } from '../platform/confirmations';
import type { RunSlots } from './runSlots';

export class RunSlotClaim {
	/** Gives up waiting for a slot (Stop while an outside run waits). */
	private cancelWait: (() => void) | undefined;

	constructor(
		private readonly chatId: string,
		private readonly slots: RunSlots | undefined,
		private readonly messages: Messages,
		/** Tells the composer the chat started or stopped waiting. */
		private readonly changed: () => void,
	) {}

	/**
	 * A slot now, or false after saying so: `wake` runs once another chat's run ends and a slot
	 * may be free.
	 */
	take(what: string, wake: () => void): boolean {
		const slots = this.slots;
		if (!slots || slots.tryAcquire(this.chatId, wake)) {
			return true;
		}
		this.messages.show(
			'info',
			`${slots.running} chats are running zero (zero.maxConcurrentRuns is ${slots.max}): ${what} waits in the queue and starts when one of them ends.`,
		);
		return false;
	}

	/** Resolves once the chat holds a slot (true), or with false when Stop gave up the wait. */
	acquire(what: string): Promise<boolean> {
		return new Promise((resolve) => {
			const attempt = (): void => {
				if (this.slots?.tryAcquire(this.chatId, attempt) ?? true) {
					this.cancelWait = undefined;
					resolve(true);
				}
			};
			if (this.take(what, attempt)) {
				resolve(true);
				return;
			}
			this.cancelWait = () => {
				this.cancelWait = undefined;
				this.slots?.cancel(this.chatId);
				resolve(false);
			};
			this.changed();
		});
	}

	/** An `acquire` is waiting (Stop can give it up). */
	get acquiring(): boolean {
		return this.cancelWait !== undefined;
	}

	/** True while the chat's next message waits for another chat's run to end. */
	get waiting(): boolean {
		return this.slots?.isWaiting(this.chatId) ?? false;
	}

	/** Stops waiting: an `acquire` resolves false, a queued wake is dropped. */
	cancel(): void {
		this.cancelWait?.();
		this.slots?.cancel(this.chatId);
	}

	release(): void {
		this.slots?.release(this.chatId);
	}
}
