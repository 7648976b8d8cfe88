import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PERMISSION_MODE_INFO } from '../../../src/shared/permissionModes';
import { RUN_PERMISSION_MODES } from '../../../src/zero/protocol/permissionModes';

describe('permission mode texts', () => {
	it('label and explain every mode a run can use, and nothing else', () => {
		assert.deepEqual(Object.keys(PERMISSION_MODE_INFO).sort(), [...RUN_PERMISSION_MODES].sort());
		for (const info of Object.values(PERMISSION_MODE_INFO)) {
			assert.ok(info.label.length > 0 && info.explanation.length > 20);
		}
	});

	it("say what unsafe really does: it never widens where zero may write (zero's engine.go)", () => {
		const unsafe = PERMISSION_MODE_INFO.unsafe.explanation;
		assert.doesNotMatch(unsafe, /everything runs|outside the sandbox, except/i);
		assert.match(unsafe, /--add-dir/);
		assert.match(unsafe, /apply_patch stays inside the workspace/);
		assert.match(unsafe, /stored deny grants and hooks still refuse/);
	});
});
