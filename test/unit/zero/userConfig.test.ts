import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zeroUserConfigPath } from '../../../src/zero/protocol/userConfig';

describe("zero's user config path", () => {
	it('is %AppData%\\zero\\config.json on Windows', () => {
		assert.equal(
			zeroUserConfigPath('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u'),
			'C:\\Users\\u\\AppData\\Roaming\\zero\\config.json',
		);
		assert.equal(zeroUserConfigPath('win32', {}, 'C:\\Users\\u'), undefined);
	});

	it('is $XDG_CONFIG_HOME/zero/config.json, else ~/.config/zero/config.json, on Linux and macOS', () => {
		for (const platform of ['linux', 'darwin']) {
			assert.equal(
				zeroUserConfigPath(platform, { XDG_CONFIG_HOME: '/x/cfg/' }, '/home/u'),
				'/x/cfg/zero/config.json',
			);
			assert.equal(zeroUserConfigPath(platform, {}, '/home/u'), '/home/u/.config/zero/config.json');
			assert.equal(
				zeroUserConfigPath(platform, { HOME: '/h2' }, '/home/u'),
				'/h2/.config/zero/config.json',
				'zero reads $HOME (zero.env may set it)',
			);
		}
		assert.equal(zeroUserConfigPath('linux', { XDG_CONFIG_HOME: 'rel' }, '/home/u'), undefined);
	});
});
