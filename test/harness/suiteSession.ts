/** What a test file's hooks start (a code-server, a world of fakes), held as a constant before they ran. */
import { after, before } from 'node:test';

/**
 * An object whose members read the one `current()` returns (named in the error while there is
 * none). `ready` resolves once it is there: Node 20 runs a file's top-level `before` hooks at the
 * same time, so a hook of the file that needs the session awaits `session.ready` first.
 */
export function suiteSession<T extends object>(
	current: () => T | undefined,
	name: string,
	ready: Promise<unknown> = Promise.resolve(),
): T & { ready: Promise<void> } {
	const started = (): T => {
		const value = current();
		if (!value) {
			throw new Error(`${name} is not there: it is started by a before hook, read it in a test`);
		}
		return value;
	};
	const whenReady = ready.then(() => undefined);
	// A start that failed fails its own hook; this copy must not be an unhandled rejection too.
	whenReady.catch(() => undefined);
	return new Proxy({} as T & { ready: Promise<void> }, {
		get(_target, key) {
			if (key === 'ready') {
				return whenReady;
			}
			const session = started();
			const value: unknown = Reflect.get(session, key);
			return typeof value === 'function' ? value.bind(session) : value;
		},
		set(_target, key, value) {
			return Reflect.set(started(), key, value);
		},
	});
}

/**
 * A test file's one session: `start()` runs before the file's first test and its `close()` after
 * the last; the returned session forwards to it (see `suiteSession`).
 */
export function suiteFixture<T extends { close(): Promise<void> }>(
	name: string,
	start: () => Promise<T>,
): T & { ready: Promise<void> } {
	let started: T | undefined;
	let markReady: (value: unknown) => void = () => undefined;
	let markFailed: (error: unknown) => void = () => undefined;
	const ready = new Promise((resolve, reject) => {
		markReady = resolve;
		markFailed = reject;
	});
	before(async () => {
		try {
			started = await start();
			markReady(started);
		} catch (error) {
			markFailed(error);
			throw error;
		}
	});
	after(async () => {
		await started?.close();
	});
	return suiteSession(() => started, name, ready);
}
