// Types for webviewPage.mjs (plain ESM so it runs without a build step).
export declare const repoRoot: string;
export declare function webviewCsp(origin: string, nonce: string): string;
export interface WebviewPageOptions {
	/** Serve the naive baseline renderer (test/bench/naiveRenderer.js) instead of dist/webview.js. */
	naive?: boolean;
	/** Extra same-origin scripts (e.g. `/test/...`) loaded with the nonce before the renderer. */
	scripts?: string[];
	/** Directory with webview.js, chat.css and codicon.ttf (default: the repository's dist/). */
	distDir?: string;
}
export interface WebviewPage {
	/** The webview document itself (CSP as in VS Code), on http://127.0.0.1:<port>/. */
	url: string;
	/** A host page on http://localhost:<port> embedding `url` in a cross-site iframe. */
	hostUrl: string;
	/** http://127.0.0.1:<port> (the webview's cspSource). */
	origin: string;
	close(): Promise<void>;
}
export declare function startWebviewPage(options?: WebviewPageOptions): Promise<WebviewPage>;
