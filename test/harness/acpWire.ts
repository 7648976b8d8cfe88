/**
 * A raw, recording JSON-RPC client for `zero acp`, used by the ACP recorder and the real-zero tier.
 *
 * It deliberately shares no code with `src/zero/protocol/acp` and `src/zero/process/acp`: it writes exactly the lines a scenario asks
 * for (also malformed ones) and logs every line in both directions, in the order the client saw
 * them, so a recording shows zero's behaviour and not our client's. Node built-ins only.
 *
 * Wire log format (one entry per line): `C> <line>` was written to zero's stdin, `A> <line>` came
 * from zero's stdout, `E> <line>` from zero's stderr, and `# <note>` marks what the harness did
 * (closed stdin, sent a signal) or saw (the process exit).
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface WireEntry {
	dir: 'C' | 'A' | 'E' | '#';
	text: string;
	/** ms since spawn. */
	atMs: number;
}

/** One message zero wrote, parsed (`undefined` when the line was not JSON). */
export interface AgentMessage {
	jsonrpc?: string;
	id?: number | string | null;
	method?: string;
	params?: Record<string, unknown>;
	result?: Record<string, unknown>;
	error?: { code: number; message: string; data?: unknown };
}

interface Waiter {
	predicate: (message: AgentMessage) => boolean;
	resolve: (message: AgentMessage) => void;
	reject: (error: Error) => void;
	timer: NodeJS.Timeout;
	from: number;
}

export class AcpWire {
	readonly log: WireEntry[] = [];
	/** Messages zero wrote, in order (a non-JSON line is kept as `{}` so indexes follow the log). */
	readonly received: AgentMessage[] = [];
	readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	private readonly child: ChildProcess;
	private readonly started = performance.now();
	private nextId = 1;
	private stdoutPartial = '';
	private stderrPartial = '';
	private waiters: Waiter[] = [];
	private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;

	constructor(zeroBin: string, env: Record<string, string>, cwd: string, args = ['acp']) {
		this.child = spawn(zeroBin, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
		this.child.stdout?.setEncoding('utf8');
		this.child.stdout?.on('data', (text: string) => this.onStdout(text));
		this.child.stderr?.setEncoding('utf8');
		this.child.stderr?.on('data', (text: string) => this.onStderr(text));
		this.child.stdin?.on('error', () => undefined);
		this.exited = new Promise((resolve) => {
			this.child.on('close', (code, signal) => {
				this.flush();
				this.exitInfo = { code, signal };
				this.note(`exit code=${code} signal=${signal}`);
				for (const waiter of this.waiters) {
					clearTimeout(waiter.timer);
					waiter.reject(new Error(`zero exited (code ${code}, signal ${signal}) while waiting`));
				}
				this.waiters = [];
				resolve({ code, signal });
			});
		});
	}

	get hasExited(): boolean {
		return this.exitInfo !== undefined;
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	note(text: string): void {
		this.log.push({ dir: '#', text, atMs: this.elapsed() });
	}

	/** Writes one line (an object is JSON-encoded) to zero's stdin. */
	sendLine(line: string | object): void {
		const text = typeof line === 'string' ? line : JSON.stringify(line);
		this.log.push({ dir: 'C', text, atMs: this.elapsed() });
		this.child.stdin?.write(`${text}\n`);
	}

	/** Sends a request with the next client id and returns that id. */
	send(method: string, params?: unknown): number {
		const id = this.nextId++;
		this.sendLine({
			jsonrpc: '2.0',
			id,
			method,
			...(params === undefined ? {} : { params }),
		});
		return id;
	}

	notify(method: string, params?: unknown): void {
		this.sendLine({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
	}

	/** Sends a request and waits for its response. */
	async request(method: string, params?: unknown, timeoutMs = 30_000): Promise<AgentMessage> {
		const id = this.send(method, params);
		return this.response(id, timeoutMs);
	}

	response(id: number, timeoutMs = 30_000): Promise<AgentMessage> {
		return this.waitFor(
			(message) => message.id === id && message.method === undefined,
			timeoutMs,
			0,
			`response to request ${id}`,
		);
	}

	/** Answers a request zero sent (its id echoed as zero wrote it). */
	reply(id: number | string | null | undefined, result: unknown): void {
		this.sendLine({ jsonrpc: '2.0', id, result });
	}

	/** Waits for a message from zero that matches, looking at messages from index `from` on. */
	waitFor(
		predicate: (message: AgentMessage) => boolean,
		timeoutMs = 30_000,
		from = 0,
		what = 'a message',
	): Promise<AgentMessage> {
		for (let index = from; index < this.received.length; index++) {
			if (predicate(this.received[index])) {
				return Promise.resolve(this.received[index]);
			}
		}
		if (this.exitInfo) {
			return Promise.reject(new Error(`zero already exited while waiting for ${what}`));
		}
		return new Promise((resolve, reject) => {
			const waiter: Waiter = {
				predicate,
				resolve,
				reject,
				from,
				timer: setTimeout(() => {
					this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
					reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
				}, timeoutMs),
			};
			this.waiters.push(waiter);
		});
	}

	/** The next permission request zero sends (after message index `from`). */
	permissionRequest(from = 0, timeoutMs = 30_000): Promise<AgentMessage> {
		return this.waitFor(
			(message) => message.method === 'session/request_permission' && message.id !== undefined,
			timeoutMs,
			from,
			'session/request_permission',
		);
	}

	closeStdin(): void {
		this.note('stdin closed');
		this.child.stdin?.end();
	}

	signal(signal: NodeJS.Signals): void {
		this.note(`${signal} sent`);
		this.child.kill(signal);
	}

	/** Closes stdin and waits for the exit; SIGKILL after `timeoutMs`. */
	async close(timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
		if (!this.exitInfo) {
			this.closeStdin();
		}
		const timer = setTimeout(() => this.signal('SIGKILL'), timeoutMs);
		const info = await this.exited;
		clearTimeout(timer);
		return info;
	}

	/** The wire log as text (see the file header for the format). */
	text(): string {
		return this.log
			.map((entry) => `${entry.dir === '#' ? '#' : `${entry.dir}>`} ${entry.text}\n`)
			.join('');
	}

	private elapsed(): number {
		return Math.round(performance.now() - this.started);
	}

	private onStdout(text: string): void {
		const parts = (this.stdoutPartial + text).split('\n');
		this.stdoutPartial = parts.pop() ?? '';
		for (const line of parts) {
			this.onAgentLine(line);
		}
	}

	private onStderr(text: string): void {
		const parts = (this.stderrPartial + text).split('\n');
		this.stderrPartial = parts.pop() ?? '';
		for (const line of parts) {
			this.log.push({ dir: 'E', text: line, atMs: this.elapsed() });
		}
	}

	private flush(): void {
		if (this.stdoutPartial !== '') {
			this.onAgentLine(this.stdoutPartial);
			this.stdoutPartial = '';
		}
		if (this.stderrPartial !== '') {
			this.log.push({ dir: 'E', text: this.stderrPartial, atMs: this.elapsed() });
			this.stderrPartial = '';
		}
	}

	private onAgentLine(line: string): void {
		this.log.push({ dir: 'A', text: line, atMs: this.elapsed() });
		let message: AgentMessage = {};
		try {
			const value: unknown = JSON.parse(line);
			if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
				message = value as AgentMessage;
			}
		} catch {
			// Kept as {} so indexes still follow the log.
		}
		const index = this.received.length;
		this.received.push(message);
		for (const waiter of [...this.waiters]) {
			if (index >= waiter.from && waiter.predicate(message)) {
				clearTimeout(waiter.timer);
				this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
				waiter.resolve(message);
			}
		}
	}
}

/** Parses a wire log back into entries (for tests and the FAKE agent's conformance check). */
export function parseWireLog(text: string): { dir: WireEntry['dir']; text: string }[] {
	const entries: { dir: WireEntry['dir']; text: string }[] = [];
	for (const line of text.split('\n')) {
		if (line === '') {
			continue;
		}
		if (line.startsWith('# ')) {
			entries.push({ dir: '#', text: line.slice(2) });
			continue;
		}
		const match = /^([CAE])> ?(.*)$/.exec(line);
		if (!match) {
			throw new Error(`not a wire log line: ${line.slice(0, 80)}`);
		}
		entries.push({ dir: match[1] as 'C' | 'A' | 'E', text: match[2] });
	}
	return entries;
}
