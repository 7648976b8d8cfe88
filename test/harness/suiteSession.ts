/** What a test file's hooks start (a code-server, a world of fakes), held as a constant before they ran. */

/** An object whose members read the one `current()` returns (named in the error while there is none). */
export function suiteSession<T extends object>(current: () => T | undefined, name: string): T {
	const started = (): T => {
		const value = current();
		if (!value) {
			throw new Error(`${name} is not there: it is started by a before hook, read it in a test`);
		}
		return value;
	};
	return new Proxy({} as T, {
		get(_target, key) {
			const session = started();
			const value: unknown = Reflect.get(session, key);
			return typeof value === 'function' ? value.bind(session) : value;
		},
		set(_target, key, value) {
			return Reflect.set(started(), key, value);
		},
	});
}
