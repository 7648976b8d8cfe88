/**
 * Finding locations in a report as links that open the file at the line. The saved Markdown holds
 * a `file:` URL with a `#L<line>` fragment; the report page turns it into a `command:` link to
 * one command (the only one its webview may run), and only when the file is inside a workspace
 * folder: a model's path to anywhere else stays plain text. No VS Code API: unit-tested.
 */
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const OPEN_REPORT_LOCATION = 'zero.openReportLocation';

export interface ReportLocation {
	file: string;
	line: number;
}

/** The link target written into the saved report for a finding in `file` (absolute) at `line`. */
export function locationHref(file: string, line: number): string {
	return `${pathToFileURL(file).href}#L${line}`;
}

/** Whether `file` (absolute) is strictly inside one of `folders`. */
export function isInsideFolders(file: string, folders: readonly string[]): boolean {
	return folders.some((folder) => {
		const relative = path.relative(path.resolve(folder), path.resolve(file));
		return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
	});
}

/** The location a report link points at, when it is a `file:` URL inside `folders`. */
export function reportLocation(
	href: string,
	folders: readonly string[],
): ReportLocation | undefined {
	let url: URL;
	try {
		url = new URL(href);
	} catch {
		return undefined;
	}
	if (url.protocol !== 'file:' || (url.host !== '' && url.host !== 'localhost')) {
		return undefined;
	}
	let file: string;
	try {
		file = fileURLToPath(url);
	} catch {
		return undefined;
	}
	const line = /^#L(\d{1,9})$/.exec(url.hash)?.[1];
	if (!isInsideFolders(file, folders)) {
		return undefined;
	}
	return { file, line: line ? Math.max(1, Number(line)) : 1 };
}

/** The `command:` URI the report page puts on a location link. */
export function locationCommandUri(location: ReportLocation): string {
	return `command:${OPEN_REPORT_LOCATION}?${encodeURIComponent(JSON.stringify([location]))}`;
}

/** Reads the argument of the open-location command (it comes from a link in a web page). */
export function parseReportLocation(value: unknown): ReportLocation | undefined {
	if (typeof value !== 'object' || value === null) {
		return undefined;
	}
	const { file, line } = value as { file?: unknown; line?: unknown };
	if (typeof file !== 'string' || !path.isAbsolute(file) || file.includes('\0')) {
		return undefined;
	}
	if (typeof line !== 'number' || !Number.isInteger(line) || line < 1) {
		return undefined;
	}
	return { file, line };
}
