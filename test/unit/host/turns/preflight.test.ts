import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../../../../src/host/platform/emitter';
import {
	NO_FOLDER_REFUSAL,
	preflight,
	UNTRUSTED_REFUSAL,
	ZERO_NOT_FOUND,
} from '../../../../src/host/turns/preflight';

const found = { found: true as const, path: '/bin/zero', source: 'setting' as const };
const missing = { found: false as const, searched: [] };

describe('preflight', () => {
	it('trust first, then a folder, then the binary', () => {
		const refusal = (result: ReturnType<typeof preflight>) =>
			result.ok ? undefined : [result.outcome.reason, result.outcome.message];
		assert.deepEqual(refusal(preflight(false, undefined, missing)), ['other', UNTRUSTED_REFUSAL]);
		assert.deepEqual(refusal(preflight(true, undefined, missing)), ['other', NO_FOLDER_REFUSAL]);
		assert.deepEqual(refusal(preflight(true, '/ws', missing)), ['not_found', ZERO_NOT_FOUND]);
		assert.deepEqual(
			refusal(preflight(true, '/ws', { ...missing, settingProblem: '"zero.path" is wrong.' })),
			['not_found', '"zero.path" is wrong.'],
		);
		assert.deepEqual(preflight(true, '/ws', found), { ok: true, binary: '/bin/zero', cwd: '/ws' });
	});
});

describe('Emitter', () => {
	it('a listener that unsubscribes while the event runs skips no other; none hear after dispose', () => {
		const emitter = new Emitter<number>();
		const heard: string[] = [];
		const first = emitter.event((value) => {
			heard.push(`a${value}`);
			first.dispose();
		});
		emitter.event((value) => heard.push(`b${value}`));
		emitter.fire(1);
		emitter.fire(2);
		emitter.dispose();
		emitter.fire(3);
		emitter.event((value) => heard.push(`c${value}`));
		emitter.fire(4);
		assert.deepEqual(heard, ['a1', 'b1', 'b2']);
	});
});
