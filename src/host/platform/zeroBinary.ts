import {
	discoverZero,
	nodeDiscoveryHost,
	type DiscoveryResult,
} from '../../zero/process/discovery';
import type { Logger } from './log';
import type { ZeroSettings } from './settings';

/** The process environment for zero: VS Code's own, the user's `zero.env`, minus Electron's switch. */
export function zeroProcessEnv(settings: ZeroSettings): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, ...settings.env };
	// Inherited from the extension host; it would turn any Electron app zero starts into plain Node.
	delete env.ELECTRON_RUN_AS_NODE;
	return env;
}

/** Finds the zero binary once and remembers it until `zero.path` or `zero.env` changes. */
export class ZeroBinaryLocator {
	private cached: Promise<DiscoveryResult> | undefined;

	constructor(
		private readonly settings: () => ZeroSettings,
		private readonly log: Logger,
	) {}

	locate(): Promise<DiscoveryResult> {
		this.cached ??= this.discover();
		return this.cached;
	}

	invalidate(): void {
		this.cached = undefined;
	}

	private async discover(): Promise<DiscoveryResult> {
		const settings = this.settings();
		const result = await discoverZero(settings.path, nodeDiscoveryHost(zeroProcessEnv(settings)));
		if (result.found) {
			this.log.info(`Using zero at ${result.path} (found through ${result.source}).`);
		} else {
			this.log.warn(
				`zero not found. ${result.settingProblem ?? `Searched ${result.searched.length} places.`}`,
			);
		}
		return result;
	}
}
