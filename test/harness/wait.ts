/**
 * The one polling wait of the test code (unit, integration, e2e, real zero). Use it only for a
 * state nothing announces: a file on disk, a process in /proc, a DOM attribute. When something
 * fires an event or settles a promise, wait for that instead.
 *
 * No Node built-ins and no `vscode`: the integration tests bundle it into the extension host.
 */

export interface WaitOptions {
	/** Time between two checks (default 100 ms). */
	intervalMs?: number;
	/** What was there instead, for the timeout message (called once, on timeout). */
	seen?: () => unknown;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function describeSeen(seen: WaitOptions['seen']): Promise<string> {
	if (!seen) {
		return '';
	}
	try {
		const value = await seen();
		return `; saw ${typeof value === 'string' ? value : JSON.stringify(value)}`;
	} catch (error) {
		return `; could not read what was there: ${(error as Error).message}`;
	}
}

/**
 * Resolves once `check` returns true; checks at once, then every `intervalMs`. Rejects after
 * `timeoutMs` with "timed out after <n> ms waiting for <what>" (and what `seen` returns). An
 * error thrown by `check` rejects at once.
 */
export async function waitUntil(
	check: () => boolean | Promise<boolean>,
	timeoutMs: number,
	what: string,
	{ intervalMs = 100, seen }: WaitOptions = {},
): Promise<void> {
	await waitForValue(async () => ((await check()) ? true : undefined), timeoutMs, what, {
		intervalMs,
		seen,
	});
}

/** Like waitUntil, for a value: resolves with the first result of `probe` that is not undefined. */
export async function waitForValue<T>(
	probe: () => T | undefined | Promise<T | undefined>,
	timeoutMs: number,
	what: string,
	{ intervalMs = 100, seen }: WaitOptions = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) {
			return value;
		}
		if (Date.now() >= deadline) {
			throw new Error(
				`timed out after ${timeoutMs} ms waiting for ${what}${await describeSeen(seen)}`,
			);
		}
		await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
	}
}
