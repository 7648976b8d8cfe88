// A static page that runs the chat webview (dist/webview.js + dist/chat.css) in a plain browser,
// under the same Content-Security-Policy as in VS Code, for benchmarks and browser tests:
// `import { startWebviewPage } from './webviewPage'`.
//
// The server listens on 127.0.0.1 (random port) and serves:
//   /                 the webview document (ours, or the naive baseline with `naive: true`)
//   /host.html        a "workbench" page on http://localhost:<port> that embeds `/` in an iframe,
//                     like VS Code does: the webview is cross-site, so Chromium runs it in its own
//                     renderer process and frames posted by the host page are delivered to it as
//                     real cross-process `message` events (see HOST_JS for its API)
//   /harness/*        the acquireVsCodeApi shim, a VS Code-like theme, the host page's script
//   /dist/*           the built webview (run `npm run build` first)
//   /bench/*          the naive baseline renderer and the shared reducer bundled for the browser
//   /test/*           files under test/ (for a test's own scripts, see `scripts`)
//
// In the webview document the shim records, for the test to read with `frame.evaluate`:
//   window.__posted         every message the webview posted through acquireVsCodeApi()
//   window.__errors         uncaught errors, unhandled rejections and failed resource loads
//   window.__cspViolations  every `securitypolicyviolation` event
//   window.__vscodeState    the last setState() value
// A test may define `window.__onPost = (message) => ...` (e.g. with exposeBinding) to be called
// on each posted message.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { repoRoot } from './codeServer';

/** The webview's policy from src/host/views/webviewHtml.ts, with the page's own origin as cspSource. */
export function webviewCsp(origin: string, nonce: string): string {
	return [
		"default-src 'none'",
		`script-src 'nonce-${nonce}'`,
		`style-src ${origin}`,
		`font-src ${origin}`,
		`img-src ${origin} data:`,
	].join('; ');
}

const SHIM_JS = `(() => {
	'use strict';
	const posted = [];
	const errors = [];
	const cspViolations = [];
	window.__posted = posted;
	window.__errors = errors;
	window.__cspViolations = cspViolations;
	window.__vscodeState = undefined;
	window.addEventListener('error', (event) => {
		if (event.target && event.target !== window && event.target.tagName) {
			errors.push({ kind: 'resource', message: 'failed to load ' + event.target.tagName.toLowerCase() + ' ' + (event.target.src || event.target.href || '') });
			return;
		}
		errors.push({ kind: 'error', message: String(event.message), stack: event.error && event.error.stack ? String(event.error.stack) : undefined, source: event.filename + ':' + event.lineno });
	}, true);
	window.addEventListener('unhandledrejection', (event) => {
		const reason = event.reason;
		errors.push({ kind: 'unhandledrejection', message: String(reason && reason.message ? reason.message : reason), stack: reason && reason.stack ? String(reason.stack) : undefined });
	});
	document.addEventListener('securitypolicyviolation', (event) => {
		cspViolations.push({ directive: event.violatedDirective, effectiveDirective: event.effectiveDirective, blockedURI: event.blockedURI, sourceFile: event.sourceFile, line: event.lineNumber, sample: event.sample });
	});
	let acquired = false;
	window.acquireVsCodeApi = () => {
		if (acquired) {
			throw new Error('An instance of the VS Code API has already been acquired');
		}
		acquired = true;
		return Object.freeze({
			postMessage(message) {
				// VS Code structured-clones what the webview posts.
				const copy = structuredClone(message);
				posted.push(copy);
				if (window.parent !== window) {
					window.parent.postMessage({ source: 'zero-webview', message: copy }, '*');
				}
				if (typeof window.__onPost === 'function') {
					window.__onPost(copy);
				}
			},
			getState() {
				return window.__vscodeState;
			},
			setState(state) {
				window.__vscodeState = state;
				return state;
			},
		});
	};
})();
`;

// Roughly VS Code's default dark theme in a side bar; VS Code injects these on <html>.
const THEME_CSS = `:root {
	--vscode-font-family: -apple-system, BlinkMacSystemFont, 'Segoe WPC', 'Segoe UI', 'Ubuntu', 'Droid Sans', sans-serif;
	--vscode-font-size: 13px;
	--vscode-font-weight: normal;
	--vscode-editor-font-family: 'Droid Sans Mono', 'monospace', monospace;
	--vscode-editor-font-size: 14px;
	--vscode-foreground: #cccccc;
	--vscode-descriptionForeground: #9d9d9d;
	--vscode-errorForeground: #f85149;
	--vscode-focusBorder: #0078d4;
	--vscode-sideBar-background: #181818;
	--vscode-editor-background: #1f1f1f;
	--vscode-editorWidget-background: #202020;
	--vscode-widget-border: #313131;
	--vscode-panel-border: #2b2b2b;
	--vscode-input-background: #313131;
	--vscode-input-border: #3c3c3c;
	--vscode-input-foreground: #cccccc;
	--vscode-inputValidation-errorBackground: #5a1d1d;
	--vscode-inputValidation-errorBorder: #be1100;
	--vscode-inputValidation-warningBorder: #b89500;
	--vscode-badge-background: #616161;
	--vscode-badge-foreground: #f8f8f8;
	--vscode-button-background: #0078d4;
	--vscode-button-foreground: #ffffff;
	--vscode-button-border: rgba(255, 255, 255, 0.07);
	--vscode-button-hoverBackground: #026ec1;
	--vscode-button-secondaryBackground: #313131;
	--vscode-button-secondaryForeground: #cccccc;
	--vscode-button-secondaryHoverBackground: #3c3c3c;
	--vscode-dropdown-background: #313131;
	--vscode-dropdown-border: #3c3c3c;
	--vscode-dropdown-foreground: #cccccc;
	--vscode-textCodeBlock-background: #2b2b2b;
	--vscode-textLink-foreground: #4daafc;
	--vscode-toolbar-hoverBackground: rgba(90, 93, 94, 0.31);
	--vscode-list-hoverBackground: #2a2d2e;
	--vscode-editorWarning-foreground: #cca700;
	--vscode-editorInfo-foreground: #3794ff;
	--vscode-charts-green: #89d185;
	--vscode-charts-orange: #d18616;
	--vscode-charts-yellow: #cca700;
	--vscode-testing-iconPassed: #73c991;
	--vscode-gitDecoration-addedResourceForeground: #81b88b;
	--vscode-gitDecoration-deletedResourceForeground: #c74e39;
	--vscode-symbolIcon-functionForeground: #b180d7;
	--vscode-symbolIcon-keywordForeground: #cccccc;
	--vscode-debugTokenExpression-name: #c586c0;
	--vscode-debugTokenExpression-number: #b5cea8;
	--vscode-debugTokenExpression-string: #ce9178;
}
`;

// The host page's script. API on the host page's window:
//   __fromWebview                 messages the webview posted (in order)
//   __zeroHost.send(frame)        posts one host → webview frame
//   __zeroHost.load(frames)       stores frames for stream()
//   __zeroHost.stream(ms)         posts the loaded frames, one every `ms` milliseconds on an absolute
//                                 schedule (late timers catch up, like a host that never waits for the
//                                 webview); resolves to { firstPostAt, lastPostAt, count, maxLateMs }
//                                 with times as performance.timeOrigin + performance.now()
const HOST_JS = `(() => {
	'use strict';
	const iframe = document.getElementById('webview');
	const fromWebview = [];
	window.__fromWebview = fromWebview;
	window.addEventListener('message', (event) => {
		if (event.source === iframe.contentWindow && event.data && event.data.source === 'zero-webview') {
			fromWebview.push(event.data.message);
		}
	});
	let loaded = [];
	const now = () => performance.timeOrigin + performance.now();
	window.__zeroHost = {
		send(frame) {
			iframe.contentWindow.postMessage(frame, '*');
		},
		load(frames) {
			loaded = frames;
			return frames.length;
		},
		stream(intervalMs) {
			const frames = loaded;
			return new Promise((resolve) => {
				const start = performance.now();
				let next = 0;
				let firstPostAt;
				let maxLateMs = 0;
				performance.mark('zero-bench:stream-start');
				const tick = () => {
					const elapsed = performance.now() - start;
					while (next < frames.length && next * intervalMs <= elapsed) {
						maxLateMs = Math.max(maxLateMs, elapsed - next * intervalMs);
						iframe.contentWindow.postMessage(frames[next], '*');
						firstPostAt ??= now();
						next++;
					}
					if (next < frames.length) {
						setTimeout(tick, Math.max(0, next * intervalMs - (performance.now() - start)));
					} else {
						performance.mark('zero-bench:stream-end');
						resolve({ firstPostAt, lastPostAt: now(), count: frames.length, maxLateMs });
					}
				};
				tick();
			});
		},
	};
})();
`;

function escapeAttr(value: string): string {
	return String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function webviewHtml({
	origin,
	nonce,
	scripts,
}: {
	origin: string;
	nonce: string;
	scripts: string[];
}): string {
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(webviewCsp(origin, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<script nonce="${nonce}" src="${origin}/harness/shim.js"></script>
<link rel="stylesheet" href="${origin}/harness/theme.css">
<link rel="stylesheet" href="${origin}/dist/chat.css">
<title>Zero</title>
</head>
<body class="vscode-dark">
<div id="app" class="app" data-state="loading"><p class="boot-message">Loading Zero\u2026</p></div>
${scripts.map((src) => `<script nonce="${nonce}" src="${origin}${src}"></script>`).join('\n')}
</body>
</html>`;
}

function hostHtml({
	nonce,
	frameSrc,
	frameOrigin,
}: {
	nonce: string;
	frameSrc: string;
	frameOrigin: string;
}): string {
	const csp = [
		`default-src 'none'`,
		`script-src 'nonce-${nonce}'`,
		`style-src 'nonce-${nonce}'`,
		`frame-src ${frameOrigin}`,
	].join('; ');
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<style nonce="${nonce}">html, body { margin: 0; height: 100%; overflow: hidden; background: #181818; } iframe { display: block; border: 0; width: 100%; height: 100%; }</style>
<title>Zero webview host</title>
</head>
<body>
<iframe id="webview" title="Zero" src="${escapeAttr(frameSrc)}"></iframe>
<script nonce="${nonce}">${HOST_JS}</script>
</body>
</html>`;
}

const CONTENT_TYPES: Record<string, string> = {
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.ttf': 'font/ttf',
	'.map': 'application/json',
	'.html': 'text/html; charset=utf-8',
};

let transcriptBundle: Promise<string> | undefined;

/** src/shared/transcript.ts for the browser, as `window.ZeroTranscript` (built once per process). */
async function bundleTranscript(): Promise<string> {
	transcriptBundle ??= (async () => {
		const esbuild = await import('esbuild');
		const result = await esbuild.build({
			// zod without eval (the CSP refuses it, as in the real webview), the reducer, and the
			// protocol version the real webview says hello with.
			stdin: {
				contents: [
					"import '../webview/zodConfig';",
					"export * from './transcript';",
					"export { WEBVIEW_PROTOCOL_MAJOR } from './protocol';",
				].join('\n'),
				resolveDir: path.join(repoRoot, 'src/shared'),
				loader: 'ts',
			},
			bundle: true,
			write: false,
			platform: 'browser',
			format: 'iife',
			globalName: 'ZeroTranscript',
			target: 'chrome114',
			logLevel: 'warning',
		});
		return result.outputFiles[0].text;
	})();
	return transcriptBundle;
}

export interface WebviewPageOptions {
	/** Serve the naive baseline renderer (test/bench/naiveRenderer.js) instead of dist/webview.js. */
	naive?: boolean;
	/**
	 * Extra same-origin script paths to load (with the nonce) before the renderer, e.g. a test's own
	 * helper: files under test/ are served as /test/...
	 */
	scripts?: string[];
	/**
	 * Where webview.js, chat.css and codicon.ttf are (default: the repository's dist/), to serve
	 * another build, e.g. of a patched copy of src/.
	 */
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

/** Starts the page server. */
export async function startWebviewPage({
	naive = false,
	scripts = [],
	distDir = path.join(repoRoot, 'dist'),
}: WebviewPageOptions = {}): Promise<WebviewPage> {
	distDir = path.resolve(distDir);
	if (
		!fs.existsSync(path.join(distDir, 'chat.css')) ||
		(!naive && !fs.existsSync(path.join(distDir, 'webview.js')))
	) {
		throw new Error('dist/webview.js or dist/chat.css is missing: run `npm run build` first.');
	}
	const naiveSource = naive ? await bundleTranscript() : undefined;
	const sockets = new Set<Socket>();
	let origin = '';
	let hostOrigin = '';
	const server = http.createServer((request, response) => {
		const url = new URL(request.url ?? '/', origin);
		const send = (status: number, type: string, body: string | Buffer): void => {
			response.writeHead(status, {
				'Content-Type': type,
				'Cache-Control': 'no-store',
				'X-Content-Type-Options': 'nosniff',
			});
			response.end(body);
		};
		const sendFile = (base: string, relative: string): void => {
			const resolved = path.resolve(base, relative);
			if (
				!resolved.startsWith(base + path.sep) ||
				!fs.existsSync(resolved) ||
				!fs.statSync(resolved).isFile()
			) {
				send(404, 'text/plain', 'not found');
				return;
			}
			send(
				200,
				CONTENT_TYPES[path.extname(resolved)] ?? 'application/octet-stream',
				fs.readFileSync(resolved),
			);
		};
		const pathname = decodeURIComponent(url.pathname);
		if (pathname === '/' || pathname === '/index.html') {
			const nonce = randomBytes(18).toString('base64');
			const renderer = naive
				? ['/bench/transcript.js', '/bench/naiveRenderer.js']
				: ['/dist/webview.js'];
			send(
				200,
				CONTENT_TYPES['.html'],
				webviewHtml({ origin, nonce, scripts: [...scripts, ...renderer] }),
			);
		} else if (pathname === '/host.html') {
			const nonce = randomBytes(18).toString('base64');
			send(
				200,
				CONTENT_TYPES['.html'],
				hostHtml({ nonce, frameSrc: `${origin}/`, frameOrigin: origin }),
			);
		} else if (pathname === '/harness/shim.js') {
			send(200, CONTENT_TYPES['.js'], SHIM_JS);
		} else if (pathname === '/harness/theme.css') {
			send(200, CONTENT_TYPES['.css'], THEME_CSS);
		} else if (pathname === '/bench/transcript.js' && naiveSource !== undefined) {
			send(200, CONTENT_TYPES['.js'], naiveSource);
		} else if (pathname === '/bench/naiveRenderer.js' && naive) {
			sendFile(repoRoot, 'test/bench/naiveRenderer.js');
		} else if (pathname.startsWith('/dist/')) {
			sendFile(distDir, pathname.slice('/dist/'.length));
		} else if (pathname.startsWith('/test/')) {
			sendFile(path.join(repoRoot, 'test'), pathname.slice('/test/'.length));
		} else if (pathname === '/favicon.ico') {
			send(204, 'text/plain', '');
		} else {
			send(404, 'text/plain', 'not found');
		}
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	origin = `http://127.0.0.1:${port}`;
	// Another site than the webview, so the webview gets its own renderer process (site isolation).
	hostOrigin = `http://localhost:${port}`;
	return {
		url: `${origin}/`,
		hostUrl: `${hostOrigin}/host.html`,
		origin,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) {
					socket.destroy();
				}
				server.close(() => resolve());
			}),
	};
}
