import type { WebviewToHost } from '../shared/protocol';

interface VsCodeApi {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

/** Sends a typed frame to the extension host. */
export function post(message: WebviewToHost): void {
	api.postMessage(message);
}

export function getState(): unknown {
	return api.getState();
}

export function setState(state: unknown): void {
	api.setState(state);
}
