/** The session of a test file's one code-server, held as a constant before it has started. */

/** A session object whose members read the started session (named in the error when none is). */
export function suiteSession<T extends object>(current: () => T | undefined, name: string): T {
	return new Proxy({} as T, {
		get(_target, key) {
			const session = current();
			if (!session) {
				throw new Error(`the ${name} suite's code-server is not running`);
			}
			const value: unknown = Reflect.get(session, key);
			return typeof value === 'function' ? value.bind(session) : value;
		},
	});
}
