/**
 * The TEST-ONLY driver extension (never part of zero-vscode.vsix). The e2e harness
 * (test/harness/driver.ts) packages it and installs it next to the packaged Zero, so that a
 * Playwright test can run a VS Code command by id inside the extension host. Focus moves in the
 * workbench (a tab opening, a webview taking the keyboard) cannot steal such a command the way
 * they can close the command palette under a test that is typing into it.
 *
 * It does nothing unless ZERO_TEST_DRIVER_DIR is set. Then it listens on 127.0.0.1 (a free port)
 * and writes `{ port, token, pid, startedAt }` to `$ZERO_TEST_DRIVER_DIR/driver.json` (mode 0600);
 * every request must carry the token.
 *
 *   POST /command  {"command": "zero.newChat", "args": [...]}
 *                  -> {"ok": true, "result": ...} once the command's promise settles, or
 *                     {"ok": false, "error": "..."}
 *   GET /health    -> {"ok": true, "pid": ..., "startedAt": ...}
 *
 * Arguments may contain `{"$uri": "file:///..."}`, passed to the command as a vscode.Uri; a Uri in
 * a result comes back in the same form.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as vscode from 'vscode';

const DIR_ENV = 'ZERO_TEST_DRIVER_DIR';
const MAX_BODY_BYTES = 1024 * 1024;

function decodeArg(value: unknown): unknown {
	if (Array.isArray(value)) {
		return value.map(decodeArg);
	}
	if (value && typeof value === 'object') {
		const record = value as Record<string, unknown>;
		if (typeof record.$uri === 'string' && Object.keys(record).length === 1) {
			return vscode.Uri.parse(record.$uri);
		}
		return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, decodeArg(item)]));
	}
	return value;
}

/** A command's result as JSON: Uris as `{ $uri }`, anything that does not serialize as a string. */
function encodeResult(value: unknown): unknown {
	try {
		return JSON.parse(
			JSON.stringify(value ?? null, (_key, item: unknown) =>
				item instanceof vscode.Uri ? { $uri: item.toString() } : item,
			),
		);
	} catch {
		return String(value);
	}
}

function send(response: http.ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { 'Content-Type': 'application/json' });
	response.end(JSON.stringify(body));
}

function readBody(request: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		let size = 0;
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new Error('request body too large'));
				request.destroy();
				return;
			}
			chunks.push(chunk);
		});
		request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		request.on('error', reject);
	});
}

function tokenMatches(given: string | string[] | undefined, token: string): boolean {
	if (typeof given !== 'string' || given.length !== token.length) {
		return false;
	}
	return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

export function activate(context: vscode.ExtensionContext): void {
	const dir = process.env[DIR_ENV];
	if (!dir) {
		return;
	}
	const token = randomBytes(24).toString('hex');
	const startedAt = Date.now();
	const server = http.createServer((request, response) => {
		if (!tokenMatches(request.headers['x-driver-token'], token)) {
			send(response, 403, { ok: false, error: 'bad token' });
			return;
		}
		if (request.method === 'GET' && request.url === '/health') {
			send(response, 200, { ok: true, pid: process.pid, startedAt });
			return;
		}
		if (request.method !== 'POST' || request.url !== '/command') {
			send(response, 404, { ok: false, error: `no route ${request.method} ${request.url}` });
			return;
		}
		void (async () => {
			let command = '';
			try {
				const body = JSON.parse(await readBody(request)) as { command?: unknown; args?: unknown };
				if (typeof body.command !== 'string' || body.command === '') {
					send(response, 400, { ok: false, error: '"command" must be a command id' });
					return;
				}
				command = body.command;
				const args = Array.isArray(body.args) ? body.args.map(decodeArg) : [];
				const result = await vscode.commands.executeCommand(command, ...args);
				send(response, 200, { ok: true, result: encodeResult(result) });
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error);
				send(response, 200, { ok: false, error: `${command || 'request'}: ${message}` });
			}
		})();
	});
	server.listen(0, '127.0.0.1', () => {
		const { port } = server.address() as AddressInfo;
		fs.mkdirSync(dir, { recursive: true });
		const file = path.join(dir, 'driver.json');
		const partial = `${file}.${process.pid}.tmp`;
		fs.writeFileSync(partial, JSON.stringify({ port, token, pid: process.pid, startedAt }), {
			mode: 0o600,
		});
		fs.renameSync(partial, file); // readers never see half a file
	});
	context.subscriptions.push({ dispose: () => server.close() });
}

export function deactivate(): void {
	// The server is closed through context.subscriptions.
}
