/** zero's --trace counters, read from a trace the real zero v0.8.0 wrote (p10h). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parseTraceCounters } from '../../../src/zero/protocol/trace';
import { RECORDED } from '../helpers';

describe('zero --trace counters', () => {
	it('counts model requests and reconnects, skipping every other record', () => {
		const trace = readFileSync(path.join(RECORDED, 'p10h-max-turns-trace.trace.ndjson'), 'utf8');
		assert.deepEqual(parseTraceCounters(trace), { modelRequests: 3, reconnects: 0 });
		assert.deepEqual(
			parseTraceCounters(
				'not json\n{"name":"reconnect_count","type":"counter","value":2}\n{"name":"model_requests","type":"span","value":9}\n',
			),
			{ modelRequests: 0, reconnects: 2 },
		);
	});
});
