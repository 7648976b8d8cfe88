/**
 * zero's per-run trace (`zero exec --trace <file>`): NDJSON records, among them counters such as
 * `{"name":"model_requests","type":"counter","value":3}` (`internal/trace/trace.go`). With
 * `--no-completion-gate` a run stopped by `--max-turns` ends `success` and says nothing on stdout;
 * the trace's request count is what tells (more requests than turns: zero made its final,
 * tool-less request).
 */
import { z } from 'zod';
import { validJsonLines } from './jsonLines';

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
	for (const record of validJsonLines(text, CounterRecord)) {
		if (record.name === 'model_requests') {
			counters.modelRequests += record.value;
		} else if (record.name === 'reconnect_count') {
			counters.reconnects += record.value;
		}
	}
	return counters;
}
