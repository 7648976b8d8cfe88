/**
 * Notices zero v0.8.0 prints only on stderr during `zero exec`, never in the stream-json output
 * (`internal/cli/exec.go`, `internal/cli/hook_dispatch.go`; recorded in
 * `test/fixtures/recorded/p11-*.stderr.txt`). A chat should show them on the turn.
 */

export type StderrNoticeKind =
	'model_replaced' | 'images_dropped' | 'project_config_ignored' | 'trust_store_unreadable';

export interface StderrNotice {
	kind: StderrNoticeKind;
	/** zero's line, verbatim. */
	message: string;
}

const PATTERNS: [StderrNoticeKind, RegExp][] = [
	// modelregistry deprecation: "<id> is deprecated; using <fallback> instead" (or its WarningMsg).
	['model_replaced', /^\S+ is deprecated; using \S+ instead$/],
	['images_dropped', /^Model .+ does not support image input; ignoring \d+ image\(s\)\.$/],
	[
		'project_config_ignored',
		/^zero: ignoring project hooks\/plugins\/MCP servers in an untrusted workspace\./,
	],
	['trust_store_unreadable', /^zero: the workspace-trust store could not be read;/],
];

/** The known notices in zero's stderr, in order; other lines are left to the log. */
export function stderrNotices(stderr: string): StderrNotice[] {
	const notices: StderrNotice[] = [];
	for (const raw of stderr.split('\n')) {
		const line = raw.trim();
		const match = PATTERNS.find(([, pattern]) => pattern.test(line));
		if (match) {
			notices.push({ kind: match[0], message: line });
		}
	}
	return notices;
}
