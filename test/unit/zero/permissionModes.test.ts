import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	CHAT_PERMISSION_MODES,
	ChatPermissionModeSchema,
	DEFAULT_CHAT_PERMISSION_MODE,
	RUN_PERMISSION_MODES,
	RunPermissionModeSchema,
} from '../../../src/zero/protocol/permissionModes';

describe('permission modes', () => {
	it('offer unsafe only to runs, never as a chat mode or the default', () => {
		assert.deepEqual([...RUN_PERMISSION_MODES], [...CHAT_PERMISSION_MODES, 'unsafe']);
		assert.equal(ChatPermissionModeSchema.safeParse('unsafe').success, false);
		assert.equal(RunPermissionModeSchema.safeParse('unsafe').success, true);
		assert.ok((CHAT_PERMISSION_MODES as readonly string[]).includes(DEFAULT_CHAT_PERMISSION_MODE));
		assert.notEqual(DEFAULT_CHAT_PERMISSION_MODE, 'unsafe');
	});

	it("are the values zero's --permission-mode accepts", () => {
		// zero v0.8.0 (internal/cli/exec_parse.go) accepts plan, auto, member and ask; unsafe is
		// passed as --skip-permissions-unsafe (see execArgs).
		for (const mode of CHAT_PERMISSION_MODES) {
			assert.match(mode, /^(plan|auto|member|ask)$/);
		}
		assert.equal(ChatPermissionModeSchema.safeParse('member-auto').success, false);
	});
});
