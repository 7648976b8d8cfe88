/**
 * zero's per-run trace (`zero exec --trace <file>`): NDJSON records, among them counters such as
 * `{"name":"model_requests","type":"counter","value":3}` (`internal/trace/trace.go`). With
 * `--no-completion-gate` a run stopped by `--max-turns` ends `success` and says nothing on stdout;
 * the trace's request count is what tells (more requests than turns: zero made its final,
 * tool-less request).
 */
import { z } from 'zod';

const CounterRecord = z.object({
	type: z.literal('counter'),
	name: z.string(),
	value: z.number(),
});

export interface TraceCounters {
	/**
	 * Model requests that got a response stream: a request that needed reconnects counts once, a
	 * turn zero re-issued after a stall counts again (`internal/agent/reconnect.go`).
	 */
	modelRequests: number;
	/** Reconnect retries (`reconnect_count`). */
	reconnects: number;
}

/** Reads the counters of a trace; lines that are not counter records are skipped. */
export function parseTraceCounters(text: string): TraceCounters {
	const counters: TraceCounters = { modelRequests: 0, reconnects: 0 };
	for (const line of text.split('\n')) {
		if (line.trim() === '') {
			continue;
		}
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch {
			continue;
		}
		const record = CounterRecord.safeParse(value);
		if (!record.success) {
			continue;
		}
		if (record.data.name === 'model_requests') {
			counters.modelRequests += record.data.value;
		} else if (record.data.name === 'reconnect_count') {
			counters.reconnects += record.data.value;
		}
	}
	return counters;
}
