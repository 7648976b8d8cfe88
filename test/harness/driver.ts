/**
 * The test side of the TEST-ONLY driver extension (test/driver/): builds its .vsix, and runs VS Code
 * commands by id in a code-server's extension host. Tests use it for every command that is not
 * itself under test, so that no focus change in the workbench can swallow the command (the
 * palette is for the tests of the palette).
 *
 * The driver is installed only into the throwaway extensions dirs of the e2e and real-zero tiers;
 * zero-vscode.vsix never contains it (.vscodeignore ships dist/ and media/ only).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { repoRoot } from './codeServer';
import { waitForValue } from './wait';

/** The environment variable that switches the driver on (the folder of its driver.json). */
export const DRIVER_DIR_ENV = 'ZERO_TEST_DRIVER_DIR';
export const DRIVER_EXTENSION_ID = 'zero-tests.zero-test-driver';
const sourceDir = path.join(repoRoot, 'test', 'driver');
const outDir = path.join(repoRoot, 'out', 'test-driver');
export const driverVsixPath = path.join(outDir, 'zero-test-driver.vsix');

/** Bundles test/driver/extension.ts and packages it as out/test-driver/zero-test-driver.vsix. */
export async function buildDriverVsix(): Promise<string> {
	const stage = path.join(outDir, 'extension');
	fs.rmSync(stage, { recursive: true, force: true });
	fs.mkdirSync(stage, { recursive: true });
	buildSync({
		entryPoints: [path.join(sourceDir, 'extension.ts')],
		outfile: path.join(stage, 'extension.js'),
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		external: ['vscode'],
		logLevel: 'warning',
	});
	fs.copyFileSync(path.join(sourceDir, 'package.json'), path.join(stage, 'package.json'));
	fs.writeFileSync(
		path.join(stage, 'README.md'),
		'# Zero test driver\n\nTEST ONLY: see test/driver/extension.ts in the Zero repository.\n',
	);
	const { createVSIX } = await import('@vscode/vsce');
	await createVSIX({
		cwd: stage,
		packagePath: driverVsixPath,
		dependencies: false,
		allowMissingRepository: true,
		allowStarActivation: true,
		skipLicense: true,
	});
	return driverVsixPath;
}

/** A command of the driver's answer that VS Code rejected. */
export class CommandFailed extends Error {}

/** What a command started with `Driver.start` settles to. */
export type Settled = { ok: true; result: unknown } | { ok: false; error: string };

interface DriverFile {
	port: number;
	token: string;
	pid: number;
	startedAt: number;
}

interface Answer {
	ok: boolean;
	result?: unknown;
	error?: string;
}

/** True for errors where the request never reached a driver (so nothing ran). */
function notDelivered(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return code === 'ECONNREFUSED' || code === 'ENOENT';
}

/** A Uri argument for `execute` (the driver turns it into a vscode.Uri). */
export function uriArg(file: string): { $uri: string } {
	return { $uri: `file://${path.resolve(file).split(path.sep).map(encodeURIComponent).join('/')}` };
}

/** The driver of one code-server window (its extension host writes `<dir>/driver.json`). */
export class Driver {
	constructor(readonly dir: string) {}

	private get file(): string {
		return path.join(this.dir, 'driver.json');
	}

	private read(): DriverFile | undefined {
		try {
			return JSON.parse(fs.readFileSync(this.file, 'utf8')) as DriverFile;
		} catch {
			return undefined;
		}
	}

	private request(
		driver: DriverFile,
		method: 'GET' | 'POST',
		route: string,
		body: unknown,
		timeoutMs: number,
	): Promise<Answer> {
		return new Promise((resolve, reject) => {
			const payload = body === undefined ? undefined : JSON.stringify(body);
			const request = http.request(
				{
					host: '127.0.0.1',
					port: driver.port,
					method,
					path: route,
					headers: {
						'x-driver-token': driver.token,
						...(payload ? { 'content-type': 'application/json' } : {}),
					},
					timeout: timeoutMs,
				},
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () => {
						try {
							resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer);
						} catch (error) {
							reject(error);
						}
					});
				},
			);
			request.on('timeout', () =>
				request.destroy(new Error(`no answer from the test driver after ${timeoutMs} ms`)),
			);
			request.on('error', reject);
			request.end(payload);
		});
	}

	/**
	 * Sends one request to the current driver; while no driver answers (the extension host is
	 * starting, or restarting after a reload), waits for one, up to `timeoutMs`.
	 */
	private async send(
		method: 'GET' | 'POST',
		route: string,
		body: unknown,
		timeoutMs: number,
	): Promise<Answer> {
		const deadline = Date.now() + timeoutMs;
		let lastError: unknown;
		return waitForValue(
			async () => {
				const driver = this.read();
				if (!driver) {
					lastError = new Error(`${this.file} does not exist yet`);
					return undefined;
				}
				try {
					return await this.request(
						driver,
						method,
						route,
						body,
						Math.max(1000, deadline - Date.now()),
					);
				} catch (error) {
					if (notDelivered(error)) {
						lastError = error;
						return undefined;
					}
					throw error;
				}
			},
			timeoutMs,
			`the test driver (${this.file}) to answer ${method} ${route}`,
			{ seen: () => String((lastError as Error | undefined)?.message ?? lastError) },
		);
	}

	/** Resolves once the driver of the current extension host answers. */
	async ready(timeoutMs = 60_000): Promise<void> {
		await this.send('GET', '/health', undefined, timeoutMs);
	}

	/**
	 * Runs a command in the extension host and resolves with its result once its promise settles;
	 * rejects with CommandFailed when VS Code rejected it.
	 */
	async execute<T = unknown>(command: string, ...args: unknown[]): Promise<T> {
		const answer = await this.send('POST', '/command', { command, args }, 60_000);
		if (!answer.ok) {
			throw new CommandFailed(answer.error ?? `${command} failed`);
		}
		return answer.result as T;
	}

	/**
	 * Starts a command without waiting for it, for a command that waits for the user (a quick pick,
	 * a file dialog) or ends the extension host (a reload). `settled` never rejects.
	 */
	start(command: string, ...args: unknown[]): { settled: Promise<Settled> } {
		const settled = this.execute(command, ...args).then(
			(result): Settled => ({ ok: true, result }),
			(error: Error): Settled => ({ ok: false, error: error.message }),
		);
		return { settled };
	}
}
