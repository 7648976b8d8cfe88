/**
 * Where zero keeps its user config (`internal/config/paths.go`): Go's `os.UserConfigDir()` plus
 * `zero/config.json`, except on macOS, where zero uses `$XDG_CONFIG_HOME` or `~/.config` instead of
 * `~/Library/Application Support`. Advice texts name this file, so they must name the right one on
 * every platform. Pure: the environment is the one zero runs with (`zero.env` included).
 */
export function zeroUserConfigPath(
	platform: string,
	env: Record<string, string | undefined>,
	homedir: string,
): string | undefined {
	if (platform === 'win32') {
		// os.UserConfigDir on Windows is %AppData% (it fails when that is unset).
		const appData = env.APPDATA?.trim();
		return appData ? `${appData.replace(/[\\/]+$/, '')}\\zero\\config.json` : undefined;
	}
	const xdg = env.XDG_CONFIG_HOME?.trim();
	// Go ignores a relative XDG_CONFIG_HOME (os.UserConfigDir errors); zero then has no user config.
	if (xdg) {
		return xdg.startsWith('/') ? `${xdg.replace(/\/+$/, '')}/zero/config.json` : undefined;
	}
	const home = env.HOME?.trim() || homedir;
	return home ? `${home.replace(/\/+$/, '')}/.config/zero/config.json` : undefined;
}
