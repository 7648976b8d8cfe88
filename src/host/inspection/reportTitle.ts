/** A report's title in the user's words: "Find bugs · 1 Dec 20:45" (no VS Code API: unit-tested). */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "1 Dec 20:45" in local time; with the year when it is not the current one. */
export function readableTime(ms: number, now = Date.now()): string {
	const date = new Date(ms);
	if (Number.isNaN(date.getTime())) {
		return '';
	}
	const year = date.getFullYear() === new Date(now).getFullYear() ? '' : ` ${date.getFullYear()}`;
	const pad = (value: number) => String(value).padStart(2, '0');
	return `${date.getDate()} ${MONTHS[date.getMonth()]}${year} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function reportTitle(label: string, ms: number, now = Date.now()): string {
	const time = readableTime(ms, now);
	return time ? `${oneLine(label)} \u00b7 ${time}` : oneLine(label);
}

function oneLine(text: string): string {
	const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
	return flat.length > 80 ? `${flat.slice(0, 79)}\u2026` : flat;
}

/** When a saved report was made: the stamp its file name starts with (ReportStore.save). */
export function reportStamp(fileName: string): number | undefined {
	const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/.exec(fileName);
	if (!match) {
		return undefined;
	}
	const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
	return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The title of a saved report: its own heading (reports from this version name the preset and
 * the time); for older reports ("# Zero inspection: Find bugs") the preset and the file's stamp.
 */
export function savedReportTitle(
	fileName: string,
	markdown: string,
	mtime: number,
	now = Date.now(),
): string {
	const heading = /^# (.+)$/m.exec(markdown.slice(0, 2000))?.[1]?.trim();
	const old = heading ? /^Zero inspection: (.+)$/.exec(heading)?.[1] : undefined;
	if (heading && !old) {
		return oneLine(heading);
	}
	return reportTitle(old ?? 'Inspection report', reportStamp(fileName) ?? mtime, now);
}
