/**
 * A CPU profile of a running Node.js process (the extension host) without restarting it: SIGUSR1
 * opens its inspector on 127.0.0.1:9229, and the V8 profiler samples it over a window. Used by
 * bench:idle to say which code the extension host's idle CPU went to. Needs Node's WebSocket
 * (`node --experimental-websocket` on Node 20).
 */

interface ProfileNode {
	id: number;
	callFrame: { url: string; functionName: string };
	children?: number[];
}

interface Profile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

const INSPECTOR = 'http://127.0.0.1:9229';

async function inspectorUrl(pid: number): Promise<string> {
	process.kill(pid, 'SIGUSR1');
	const deadline = Date.now() + 10_000;
	for (;;) {
		try {
			const targets = (await (await fetch(`${INSPECTOR}/json/list`)).json()) as {
				webSocketDebuggerUrl: string;
			}[];
			if (targets[0]) {
				return targets[0].webSocketDebuggerUrl;
			}
		} catch {
			// Not listening yet.
		}
		if (Date.now() > deadline) {
			throw new Error(`process ${pid} opened no inspector on ${INSPECTOR}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** A profiler session on the process; `stop` ends the window and returns its profile. */
export async function startProfile(
	pid: number,
	samplingMicros = 10_000,
): Promise<{ stop(): Promise<Profile> }> {
	const WebSocketClass = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
	if (!WebSocketClass) {
		throw new Error('no WebSocket in this Node.js: run it with --experimental-websocket');
	}
	const socket = new WebSocketClass(await inspectorUrl(pid));
	await new Promise((resolve, reject) => {
		socket.addEventListener('open', resolve, { once: true });
		socket.addEventListener('error', reject, { once: true });
	});
	let nextId = 0;
	const pending = new Map<number, (result: unknown) => void>();
	socket.addEventListener('message', (event) => {
		const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
		if (message.id !== undefined) {
			pending.get(message.id)?.(message.result);
			pending.delete(message.id);
		}
	});
	const call = (method: string, params: object = {}): Promise<unknown> =>
		new Promise((resolve) => {
			const id = ++nextId;
			pending.set(id, resolve);
			socket.send(JSON.stringify({ id, method, params }));
		});
	await call('Profiler.enable');
	await call('Profiler.setSamplingInterval', { interval: samplingMicros });
	await call('Profiler.start');
	return {
		stop: async () => {
			const { profile } = (await call('Profiler.stop')) as { profile: Profile };
			await call('Profiler.disable');
			socket.close();
			return profile;
		},
	};
}

const ROOT_NAMES = new Set(['(root)', '(idle)', '(program)', '(garbage collector)']);

/**
 * Milliseconds of samples per group (`group` names a call frame's group, e.g. by its script). A
 * sample in a native function or Node's own code (`spawn`, `fs`) counts for the nearest script
 * that called it.
 */
export function selfTimeBy(
	profile: Profile,
	group: (frame: ProfileNode['callFrame']) => string,
): Record<string, number> {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parentOf = new Map<number, number>();
	for (const node of profile.nodes) {
		for (const child of node.children ?? []) {
			parentOf.set(child, node.id);
		}
	}
	const scriptFrame = (id: number): ProfileNode['callFrame'] | undefined => {
		let node = byId.get(id);
		const inner = (frame: ProfileNode['callFrame']): boolean =>
			(frame.url === '' && !ROOT_NAMES.has(frame.functionName)) || frame.url.startsWith('node:');
		while (node && inner(node.callFrame)) {
			const parent = parentOf.get(node.id);
			node = parent === undefined ? undefined : byId.get(parent);
		}
		return node?.callFrame ?? byId.get(id)?.callFrame;
	};
	const totals: Record<string, number> = {};
	profile.samples.forEach((id, index) => {
		const frame = scriptFrame(id);
		const key = frame ? group(frame) : '?';
		totals[key] = (totals[key] ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000;
	});
	return Object.fromEntries(
		Object.entries(totals)
			.map(([key, ms]) => [key, Math.round(ms * 10) / 10] as const)
			.sort((a, b) => b[1] - a[1]),
	);
}
