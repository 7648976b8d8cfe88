/**
 * The webview's `acquireVsCodeApi` for `node --test`: what the code posts to the host lands in
 * `posted`. Import it after domEnv and before any module that talks to the host.
 */
export const posted: unknown[] = [];

(globalThis as Record<string, unknown>).acquireVsCodeApi = () => ({
	postMessage: (message: unknown) => posted.push(message),
	getState: () => undefined,
	setState: () => undefined,
});
