/** The messages sent in this workspace, newest last, for the composer's Up/Down (at most 100). */

/** Where the history is kept (a VS Code Memento; a Map in tests). */
export interface HistoryStore {
	get<T>(key: string): T | undefined;
	update(key: string, value: unknown): PromiseLike<void>;
}

const HISTORY_KEY = 'zero.promptHistory';
const HISTORY_LIMIT = 100;

export class PromptHistory {
	constructor(private readonly store: HistoryStore) {}

	list(): string[] {
		return this.store.get<string[]>(HISTORY_KEY) ?? [];
	}

	remember(text: string): void {
		const trimmed = text.trim();
		if (trimmed === '') {
			return;
		}
		const history = this.list().filter((entry) => entry !== trimmed);
		history.push(trimmed);
		void this.store.update(HISTORY_KEY, history.slice(-HISTORY_LIMIT));
	}
}
