/**
 * Where a turn's time goes before its first answer text (#34, first byte): marks on the wall clock
 * at sub-millisecond resolution, so they line up with what zero and the webview measure on the same
 * machine (`npm run bench:firstbyte` reads them from the log). Times only, never content. No VS Code.
 */
import type { TranscriptAction } from '../../shared/transcriptSchema';

export type TimelineMark =
	'started' | 'tracked' | 'spawned' | 'session' | 'prompted' | 'firstLine' | 'firstText';

/** The words of the log line; the benchmark parses them. */
const LABELS: Record<TimelineMark, string> = {
	started: 'started',
	tracked: 'tracked',
	spawned: 'spawned',
	session: 'session',
	prompted: 'prompted',
	firstLine: 'first line',
	firstText: 'first text',
};

/** Milliseconds since the epoch, with the fraction `Date.now()` drops. */
export function wallClockMs(): number {
	return performance.timeOrigin + performance.now();
}

export class TurnTimeline {
	/** When the chat was asked to run the turn. */
	readonly sentAt: number;
	private readonly marks = new Map<TimelineMark, number>();

	constructor(private readonly clock: () => number = wallClockMs) {
		this.sentAt = clock();
	}

	/** The first time only: a mark says when something first happened. */
	mark(name: TimelineMark): void {
		if (!this.marks.has(name)) {
			this.marks.set(name, this.clock());
		}
	}

	/** Marks what the turn's own actions say: its start, its first line, its first answer text. */
	observe(action: TranscriptAction): void {
		if (action.type === 'turn/start') {
			this.mark('started');
		} else if (action.type === 'run/line') {
			this.mark('firstLine');
			if (action.parsed.kind === 'event' && action.parsed.event.type === 'text') {
				this.mark('firstText');
			}
		}
	}

	/** Milliseconds from the send to a mark (undefined: it never happened). */
	since(name: TimelineMark): number | undefined {
		const at = this.marks.get(name);
		return at === undefined ? undefined : at - this.sentAt;
	}

	/** `sent at 1765000000000.123 ms; started +2.1 ms, spawned +40.3 ms, ...`, in the order they came. */
	describe(): string {
		const marks = [...this.marks.entries()]
			.sort((a, b) => a[1] - b[1])
			.map(([name, at]) => `${LABELS[name]} +${(at - this.sentAt).toFixed(1)} ms`);
		return `sent at ${this.sentAt.toFixed(1)} ms; ${marks.length > 0 ? marks.join(', ') : 'nothing after it'}`;
	}
}
