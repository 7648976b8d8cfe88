import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkpointMaxBytes } from '../../../src/zero/protocol/checkpointSchemas';

describe('checkpoint size cap', () => {
	it("honours zero's ZERO_CHECKPOINT_MAX_BYTES the way strconv.Atoi reads it", () => {
		assert.equal(checkpointMaxBytes({}), 5 * 1024 * 1024);
		assert.equal(checkpointMaxBytes({ ZERO_CHECKPOINT_MAX_BYTES: '64' }), 64);
		assert.equal(checkpointMaxBytes({ ZERO_CHECKPOINT_MAX_BYTES: '+64' }), 64);
		for (const bad of ['0', '-5', '1e3', ' 64', '64k', '']) {
			assert.equal(checkpointMaxBytes({ ZERO_CHECKPOINT_MAX_BYTES: bad }), 5 * 1024 * 1024, bad);
		}
	});
});
