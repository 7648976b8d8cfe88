/** The run state of a chat double: running until Stop, then its listeners hear that it stopped. */
export function runStateDouble(log: string[], runningAtStart = false) {
	let running = runningAtStart;
	const listeners: ((state: { running: boolean }) => void)[] = [];
	return {
		isRunning: () => running,
		stop: () => {
			log.push('stop');
			running = false;
			queueMicrotask(() => listeners.forEach((listener) => listener({ running: false })));
		},
		onRunStateChange: (listener: (state: { running: boolean }) => void) => {
			listeners.push(listener);
			return { dispose: () => void listeners.splice(listeners.indexOf(listener), 1) };
		},
	};
}
