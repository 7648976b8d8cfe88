import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as path from 'node:path';
import {
	findSessionEvent,
	lastEventSequenceOfType,
	zeroSessionsRoot,
} from '../../../src/zero/process/sessionStore';
import { RECORDED } from '../helpers';

describe("zero's sessions root", () => {
	it('is $XDG_DATA_HOME/zero/sessions, trimmed, when XDG_DATA_HOME is set', () => {
		assert.deepEqual(
			zeroSessionsRoot({ XDG_DATA_HOME: ' /data ', HOME: '/home/u' }, { platform: 'linux' }),
			{ ok: true, root: '/data/zero/sessions' },
		);
	});

	it('falls back to $HOME/.local/share/zero/sessions on every OS', () => {
		assert.deepEqual(zeroSessionsRoot({ HOME: '/Users/u' }, { platform: 'darwin' }), {
			ok: true,
			root: '/Users/u/.local/share/zero/sessions',
		});
		assert.deepEqual(
			zeroSessionsRoot({ XDG_DATA_HOME: '  ', HOME: '/home/u' }, { platform: 'linux' }),
			{
				ok: true,
				root: '/home/u/.local/share/zero/sessions',
			},
		);
		assert.deepEqual(zeroSessionsRoot({ HOME: 'C:\\Users\\u' }, { platform: 'win32' }), {
			ok: true,
			root: 'C:\\Users\\u\\.local\\share\\zero\\sessions',
		});
	});

	it('uses %USERPROFILE% without HOME on Windows, whatever the case of the names', () => {
		assert.deepEqual(zeroSessionsRoot({ UserProfile: 'C:\\Users\\u' }, { platform: 'win32' }), {
			ok: true,
			root: 'C:\\Users\\u\\.local\\share\\zero\\sessions',
		});
		assert.deepEqual(
			zeroSessionsRoot({ xdg_data_home: 'D:\\data', HOME: 'C:\\h' }, { platform: 'win32' }),
			{ ok: true, root: 'D:\\data\\zero\\sessions' },
		);
	});

	it('resolves a relative root against the working directory zero runs in, or says why not', () => {
		assert.deepEqual(
			zeroSessionsRoot({ XDG_DATA_HOME: 'rel' }, { platform: 'linux', cwd: '/ws' }),
			{
				ok: true,
				root: '/ws/rel/zero/sessions',
			},
		);
		const relative = zeroSessionsRoot({ XDG_DATA_HOME: 'rel' }, { platform: 'linux' });
		assert.equal(relative.ok, false);
		const none = zeroSessionsRoot({ PATH: '/bin' }, { platform: 'linux' });
		assert.equal(none.ok, false);
		assert.match(none.ok ? '' : none.reason, /neither XDG_DATA_HOME nor HOME/);
	});
});

describe('lastEventSequenceOfType', () => {
	const store = path.join(RECORDED, 'shaping', 'store', 'after-fork');

	it("finds the recorded fork's session_fork marker (its first own message is the next event)", async () => {
		const found = await lastEventSequenceOfType(store, 'sh-fork', 'session_fork');
		assert.deepEqual(found, { ok: true, value: 21 });
		const message = await findSessionEvent(store, 'sh-fork', 22);
		assert.equal(message.ok && message.value.event.type, 'message');
		assert.equal(message.ok && (message.value.event.payload as { role?: string }).role, 'user');
	});

	it('says not_found for a session without such an event, or without events', async () => {
		const none = await lastEventSequenceOfType(store, 'sh-fork', 'no_such_type');
		assert.equal(none.ok, false);
		assert.equal(!none.ok && none.code, 'not_found');
		const missing = await lastEventSequenceOfType(store, 'sh-nobody', 'session_fork');
		assert.equal(!missing.ok && missing.code, 'not_found');
	});

	it('refuses a session id that is not zero\u2019s (no path out of the store)', async () => {
		const escaped = await lastEventSequenceOfType(store, '../sh-fork', 'session_fork');
		assert.equal(!escaped.ok && escaped.code, 'invalid_request');
	});
});
