/**
 * What the webview benchmarks measure in the webview's renderer, shared by bench:webview and
 * bench:soak: the main thread's frames in a Chrome trace, the JS heap after GC, the process's
 * memory. See test/bench/webview.bench.ts for why a trace and how a frame is counted.
 */
import fs from 'node:fs';
import type { CDPSession } from 'playwright-core';

export const TRACE_CATEGORIES = [
	'toplevel',
	'devtools.timeline',
	'disabled-by-default-devtools.timeline.frame',
	'blink.user_timing',
	// More detail for --save-trace investigations, e.g. BENCH_TRACE_CATEGORIES=disabled-by-default-devtools.timeline,cc,blink
	...(process.env.BENCH_TRACE_CATEGORIES?.split(',').filter(Boolean) ?? []),
];

export interface TraceEvent {
	name: string;
	cat: string;
	ph: string;
	ts: number;
	dur?: number;
	/** Thread CPU time of an X event (microseconds). */
	tdur?: number;
	pid: number;
	tid: number;
	args?: Record<string, unknown>;
}

export interface TraceStats {
	frames: number;
	frameBusyP50: number;
	frameBusyP95: number;
	frameBusyMax: number;
	framesOver16: number;
	framesOver50: number;
	/** Like frameBusy*, with the tasks' thread CPU time instead of wall time. */
	frameCpuP50: number;
	frameCpuP95: number;
	frameIntervalP50: number;
	frameIntervalP95: number;
	busyMs: number;
	cpuMs: number;
	windowMs: number;
	breakdownMs: Record<string, number>;
	topSelfMs: Record<string, number>;
}

export function percentile(values: number[], p: number): number {
	if (values.length === 0) {
		return NaN;
	}
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const CATEGORY_OF: [RegExp, string][] = [
	[/^(UpdateLayoutTree|ScheduleStyleRecalculation|RecalculateStyles)$/, 'style'],
	[/^(Layout|InvalidateLayout)$/, 'layout'],
	[
		/^(Paint|PrePaint|Layerize|Commit|UpdateLayer|ScrollLayer|PaintImage|RasterTask|CompositeLayers)$/,
		'paint+commit',
	],
	[/^ParseHTML$/, 'parseHTML (innerHTML)'],
	[/GC|^V8\.GC|Scavenge|Sweep|Mark/, 'gc'],
	[
		/^(FunctionCall|EventDispatch|FireAnimationFrame|TimerFire|EvaluateScript|v8\.|V8\.|RunMicrotasks|BlinkScheduler_PerformMicrotaskCheckpoint|FireIdleCallback|XHR|ResizeObserver|IntersectionObserver)/,
		'script',
	],
];

export function categoryOf(name: string): string {
	for (const [pattern, category] of CATEGORY_OF) {
		if (pattern.test(name)) {
			return category;
		}
	}
	return 'other';
}

export function analyzeTrace(events: TraceEvent[]): TraceStats & { pid: number; tid: number } {
	const probeMark = events.find((event) => event.name === 'zero-bench:probe');
	const startMark = events.find((event) => event.name === 'zero-bench:stream-start');
	if (!probeMark || !startMark) {
		throw new Error('the trace is missing the zero-bench marks');
	}
	const { pid, tid } = probeMark;
	const doneMark = events.find((event) => event.name === 'zero-bench:done' && event.pid === pid);
	const onMain = events.filter((event) => event.pid === pid && event.tid === tid);
	const windowStart = startMark.ts;
	const windowEnd = doneMark
		? doneMark.ts
		: Math.max(...onMain.map((event) => event.ts + (event.dur ?? 0)));

	// Main-thread busy intervals: union of top-level tasks.
	const taskEvents = onMain
		.filter(
			(event) =>
				event.name === 'ThreadControllerImpl::RunTask' &&
				event.ph === 'X' &&
				event.dur !== undefined,
		)
		.sort((a, b) => a.ts - b.ts);
	const tasks = taskEvents.map(
		(event) => [event.ts, event.ts + (event.dur ?? 0)] as [number, number],
	);
	// Thread CPU time of the tasks (tdur): the same work without the time the thread waited for a
	// CPU, which on a loaded machine is a large part of the wall time.
	const taskStarts = taskEvents.map((event) => event.ts);
	const cpuIn = (from: number, to: number): number => {
		let total = 0;
		let low = 0;
		let high = taskStarts.length;
		while (low < high) {
			const mid = (low + high) >> 1;
			if (taskStarts[mid] < from) {
				low = mid + 1;
			} else {
				high = mid;
			}
		}
		for (let i = low; i < taskEvents.length && taskStarts[i] < to; i++) {
			total += taskEvents[i].tdur ?? taskEvents[i].dur ?? 0;
		}
		return total;
	};
	const busy: [number, number][] = [];
	for (const [start, end] of tasks) {
		const last = busy[busy.length - 1];
		if (last && start <= last[1]) {
			last[1] = Math.max(last[1], end);
		} else {
			busy.push([start, end]);
		}
	}
	const busyIn = (from: number, to: number): number => {
		let total = 0;
		// Binary search for the first interval that ends after `from`.
		let low = 0;
		let high = busy.length;
		while (low < high) {
			const mid = (low + high) >> 1;
			if (busy[mid][1] <= from) {
				low = mid + 1;
			} else {
				high = mid;
			}
		}
		for (let i = low; i < busy.length && busy[i][0] < to; i++) {
			total += Math.min(to, busy[i][1]) - Math.max(from, busy[i][0]);
		}
		return total;
	};

	const beginFrames = onMain
		.filter((event) => event.name === 'BeginMainThreadFrame')
		.map((event) => event.ts)
		.sort((a, b) => a - b);
	const frameBusy: number[] = [];
	const frameCpu: number[] = [];
	const frameIntervals: number[] = [];
	for (let i = 0; i < beginFrames.length; i++) {
		const from = beginFrames[i];
		if (from < windowStart || from > windowEnd) {
			continue;
		}
		const to = beginFrames[i + 1] ?? windowEnd;
		frameBusy.push(busyIn(from, to) / 1000);
		frameCpu.push(cpuIn(from, to) / 1000);
		frameIntervals.push((to - from) / 1000);
	}

	// Self time per event name inside the window (X events nest on one thread).
	const selfByName = new Map<string, number>();
	const spans = onMain
		.filter(
			(event) =>
				event.ph === 'X' &&
				event.dur !== undefined &&
				event.ts + (event.dur ?? 0) > windowStart &&
				event.ts < windowEnd,
		)
		.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
	const stack: { end: number; name: string; childTotal: number; dur: number }[] = [];
	const pop = (): void => {
		const done = stack.pop();
		if (done) {
			selfByName.set(
				done.name,
				(selfByName.get(done.name) ?? 0) + Math.max(0, done.dur - done.childTotal),
			);
		}
	};
	for (const span of spans) {
		const end = span.ts + (span.dur ?? 0);
		while (stack.length > 0 && stack[stack.length - 1].end <= span.ts) {
			pop();
		}
		const parent = stack[stack.length - 1];
		if (parent) {
			parent.childTotal += span.dur ?? 0;
		}
		stack.push({ end, name: span.name, childTotal: 0, dur: span.dur ?? 0 });
	}
	while (stack.length > 0) {
		pop();
	}
	const breakdownMs: Record<string, number> = {};
	for (const [name, micros] of selfByName) {
		const category = name === 'ThreadControllerImpl::RunTask' ? 'other' : categoryOf(name);
		breakdownMs[category] = round((breakdownMs[category] ?? 0) + micros / 1000);
	}
	const topSelfMs = Object.fromEntries(
		[...selfByName]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 10)
			.map(([name, micros]) => [name, round(micros / 1000)]),
	);
	return {
		pid,
		tid,
		frames: frameBusy.length,
		frameBusyP50: round(percentile(frameBusy, 50)),
		frameBusyP95: round(percentile(frameBusy, 95)),
		frameBusyMax: round(Math.max(...frameBusy)),
		framesOver16: frameBusy.filter((value) => value > 16).length,
		framesOver50: frameBusy.filter((value) => value > 50).length,
		frameCpuP50: round(percentile(frameCpu, 50)),
		frameCpuP95: round(percentile(frameCpu, 95)),
		frameIntervalP50: round(percentile(frameIntervals, 50)),
		frameIntervalP95: round(percentile(frameIntervals, 95)),
		busyMs: round(busyIn(windowStart, windowEnd) / 1000),
		cpuMs: round(cpuIn(windowStart, windowEnd) / 1000),
		windowMs: round((windowEnd - windowStart) / 1000),
		breakdownMs,
		topSelfMs,
	};
}

export function round(value: number, digits = 1): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

/** Private (clean + dirty) and proportional memory of a process, in MB; NaN where /proc is not readable. */
export function rendererMemory(pid: number): { privateMB: number; pssMB: number } {
	try {
		const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
		const kb = (field: string): number =>
			Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
		return {
			privateMB: round((kb('Private_Clean') + kb('Private_Dirty')) / 1024, 1),
			pssMB: round(kb('Pss') / 1024, 1),
		};
	} catch {
		return { privateMB: NaN, pssMB: NaN };
	}
}

/** JSHeapUsedSize of the webview's process after a full GC. */
export async function jsHeapUsed(cdp: CDPSession): Promise<number> {
	await cdp.send('HeapProfiler.enable');
	await cdp.send('HeapProfiler.collectGarbage');
	await cdp.send('HeapProfiler.collectGarbage');
	await cdp.send('Performance.enable');
	const { metrics } = (await cdp.send('Performance.getMetrics')) as {
		metrics: { name: string; value: number }[];
	};
	await cdp.send('Performance.disable');
	await cdp.send('HeapProfiler.disable');
	return metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? NaN;
}
