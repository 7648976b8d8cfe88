// In-page probe for `npm run bench:webview`. The bench evaluates this file in the webview frame
// through the DevTools protocol (which the page's CSP does not apply to), after the handshake and
// before the stream, then calls window.__benchProbe.install(expected).
//
// It records, with times as performance.timeOrigin + performance.now() (comparable with the host
// page's clock):
//   - when the first transcript/actions frame arrives (capturing listener, before the renderer runs);
//   - when the last event is in the DOM: once the frame carrying run/exit has arrived, a
//     MutationObserver checks after every DOM change that the ended status row, the last item (in
//     its final state) and the end of the last text are present; it then sets `doneAt` and drops the
//     user-timing mark `zero-bench:done` (the bench finds it in the Chrome trace);
//   - a requestAnimationFrame loop: it keeps Chromium producing a frame every vsync, so that frame
//     boundaries exist for the trace analysis even when the renderer has nothing to do, and its
//     timestamps give the frame intervals as the page saw them;
//   - long tasks (> 50 ms) from PerformanceObserver, as a cross-check of the trace.
(() => {
	'use strict';
	const now = () => performance.timeOrigin + performance.now();
	const strip = (text) => text.replace(/```[A-Za-z]*/g, '').replace(/\s+/g, '');
	const probe = {
		firstFrameAt: undefined,
		exitFrameAt: undefined,
		doneAt: undefined,
		framesReceived: 0,
		actionsReceived: 0,
		rafTimes: [],
		longTasks: [],
		checks: 0,
	};
	let resolveDone;
	probe.done = new Promise((resolve) => {
		resolveDone = resolve;
	});
	let stopped = false;
	let observer;
	let longTaskObserver;

	probe.install = (expected) => {
		const check = () => {
			if (probe.doneAt !== undefined) {
				return true;
			}
			probe.checks++;
			const status = document.querySelector('[data-kind="status"][data-phase="ended"]');
			if (!status || !status.textContent.includes(expected.statusText)) {
				return false;
			}
			const last = document.querySelector(`.row[data-item="${expected.lastItemId}"]`);
			if (
				!last ||
				(expected.lastItemStatus !== undefined && last.dataset.status !== expected.lastItemStatus)
			) {
				return false;
			}
			const text = document.querySelector(`.row[data-item="${expected.lastTextId}"]`);
			if (!text || !strip(text.textContent).includes(expected.lastTextTail)) {
				return false;
			}
			probe.doneAt = now();
			performance.mark('zero-bench:done');
			observer?.disconnect();
			resolveDone(probe.doneAt);
			return true;
		};
		const arm = () => {
			if (check()) {
				return;
			}
			observer = new MutationObserver(() => check());
			observer.observe(document.body, {
				childList: true,
				subtree: true,
				attributes: true,
				characterData: true,
			});
		};
		window.addEventListener(
			'message',
			(event) => {
				const message = event.data;
				if (message && message.type === 'transcript/actions') {
					probe.firstFrameAt ??= now();
					probe.framesReceived++;
					probe.actionsReceived += message.actions.length;
				}
			},
			{ capture: true },
		);
		// Registered after the renderer's own listener, so it runs once the frame has been handled.
		window.addEventListener('message', (event) => {
			const message = event.data;
			if (
				probe.exitFrameAt === undefined &&
				message &&
				message.type === 'transcript/actions' &&
				message.actions.length > 0 &&
				message.actions[message.actions.length - 1].type === 'run/exit'
			) {
				probe.exitFrameAt = now();
				arm();
			}
		});
		const loop = (time) => {
			probe.rafTimes.push(time);
			if (!stopped) {
				requestAnimationFrame(loop);
			}
		};
		requestAnimationFrame(loop);
		try {
			longTaskObserver = new PerformanceObserver((list) => {
				for (const entry of list.getEntries()) {
					probe.longTasks.push([entry.startTime, entry.duration]);
				}
			});
			longTaskObserver.observe({ type: 'longtask' });
		} catch {
			// Not supported: the trace has the same information.
		}
		performance.mark('zero-bench:probe');
	};

	/** Stops the loop and observers; returns what was recorded (JSON-friendly). */
	probe.stop = () => {
		stopped = true;
		observer?.disconnect();
		longTaskObserver?.disconnect();
		const { done: _done, install: _install, stop: _stop, ...data } = probe;
		return data;
	};

	window.__benchProbe = probe;
})();
