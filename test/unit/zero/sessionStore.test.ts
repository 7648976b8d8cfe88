import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zeroSessionsRoot } from '../../../src/zero/process/sessionStore';

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
