/**
 * A minimal event emitter shaped like `vscode.EventEmitter`, so the chat's core (session, turn
 * backends, approvals) runs without VS Code and is unit-tested under plain node.
 */
export interface Subscription {
	dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Subscription;

export class Emitter<T> {
	private listeners: ((value: T) => void)[] = [];
	private disposed = false;

	readonly event: Event<T> = (listener) => {
		if (this.disposed) {
			return { dispose: () => undefined };
		}
		this.listeners.push(listener);
		return {
			dispose: () => {
				this.listeners = this.listeners.filter((kept) => kept !== listener);
			},
		};
	};

	fire(value: T): void {
		// A listener that unsubscribes (or subscribes) while the event runs does not skip another.
		for (const listener of [...this.listeners]) {
			listener(value);
		}
	}

	dispose(): void {
		this.disposed = true;
		this.listeners = [];
	}
}
