// @ts-check
// Loaded into code-server's processes with NODE_OPTIONS=--require <this file>, it watches the
// Zero extension from outside, in the real extension host: how long its activate() takes, and
// every file read or process started by the extension's own code (its stack runs through the
// extension's bundle). Nothing of the extension is changed, so the same probe measures any build.
// Records go, one JSON object per line, to the file in ZERO_ACTIVATION_PROBE_OUT.
'use strict';

const out = process.env.ZERO_ACTIVATION_PROBE_OUT;
const isExtensionHost = process.argv.some((arg) => arg === '--type=extensionHost');

if (out && isExtensionHost) {
	const fs = require('node:fs');
	const childProcess = require('node:child_process');
	const Module = require('node:module');
	const { performance } = require('node:perf_hooks');

	/** The bundle of the extension under test (installed .vsix or development path). */
	const BUNDLE = /zero-vscode[^/\\]*[/\\]dist[/\\]extension\.js$/;
	const write = fs.appendFileSync.bind(fs);
	let activating = false;

	/** @param {Record<string, unknown>} record */
	const record = (record) => {
		try {
			write(out, `${JSON.stringify({ at: performance.now(), activating, ...record })}\n`);
		} catch {
			// The output file is gone (the run is over).
		}
	};

	/** True when the current call comes from the extension's own code. */
	const fromExtension = () => {
		const stack = new Error().stack ?? '';
		return /zero-vscode[^/\\\n]*[/\\]dist[/\\]extension\.js/.test(stack);
	};

	/**
	 * @param {any} target
	 * @param {string} name
	 * @param {string} kind
	 */
	const watch = (target, name, kind) => {
		const original = target[name];
		if (typeof original !== 'function') {
			return;
		}
		target[name] = function (/** @type {unknown[]} */ ...args) {
			if (fromExtension()) {
				const [first, second] = args;
				record({
					kind,
					op: name,
					target: typeof first === 'string' ? first : String(first),
					args: kind === 'spawn' && Array.isArray(second) ? second.slice(0, 8) : undefined,
				});
			}
			return original.apply(this, args);
		};
	};

	for (const name of [
		'readFile',
		'readFileSync',
		'createReadStream',
		'open',
		'openSync',
		'readdir',
		'readdirSync',
		'stat',
		'statSync',
		'access',
		'accessSync',
		'existsSync',
	]) {
		watch(fs, name, 'file');
	}
	for (const name of ['readFile', 'open', 'readdir', 'stat', 'access']) {
		watch(fs.promises, name, 'file');
	}
	for (const name of [
		'spawn',
		'spawnSync',
		'execFile',
		'execFileSync',
		'exec',
		'execSync',
		'fork',
	]) {
		watch(childProcess, name, 'spawn');
	}

	// Time activate(): wrap it when the extension host loads the bundle.
	const load = /** @type {any} */ (Module)._load;
	/** @type {any} */ (Module)._load = function (/** @type {string} */ request, parent, isMain) {
		const exported = load.apply(this, [request, parent, isMain]);
		let resolved = '';
		try {
			resolved = /** @type {any} */ (Module)._resolveFilename(request, parent, isMain);
		} catch {
			// not a file
		}
		if (BUNDLE.test(resolved) && exported && typeof exported.activate === 'function') {
			// esbuild's exports are getters that cannot be reassigned: hand out a wrapper instead.
			const activate = exported.activate;
			const timed = function (/** @type {unknown} */ self, /** @type {unknown[]} */ args) {
				const started = performance.now();
				activating = true;
				record({ kind: 'activate-start' });
				const settle = (/** @type {unknown} */ value) => {
					activating = false;
					record({
						kind: 'activate-end',
						durationMs: performance.now() - started,
						// What other extensions get from getExtension().exports.
						exportedKeys:
							value && typeof value === 'object' ? Object.keys(/** @type {object} */ (value)) : [],
					});
				};
				let result;
				try {
					result = activate.apply(self, args);
				} catch (error) {
					settle(undefined);
					throw error;
				}
				if (result && typeof result.then === 'function') {
					return result.then(
						(/** @type {unknown} */ value) => {
							settle(value);
							return value;
						},
						(/** @type {unknown} */ error) => {
							settle(undefined);
							throw error;
						},
					);
				}
				settle(result);
				return result;
			};
			return new Proxy(exported, {
				get: (target, property, receiver) =>
					property === 'activate'
						? function (/** @type {unknown[]} */ ...args) {
								return timed(this, args);
							}
						: Reflect.get(target, property, receiver),
			});
		}
		return exported;
	};
}
