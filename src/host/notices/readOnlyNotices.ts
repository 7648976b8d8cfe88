/**
 * A turn's context for zero's permission rules, and the notices of a transcript file shown
 * read-only (what happened, never a follow-up).
 */
import { describePermission } from './permissions';
import type { RunContext } from '../../shared/permissionTypes';
import {
	permissionNoticeView,
	turnLimitNoticeView,
	type NoticeView,
	type TurnNotices,
} from '../../shared/notices';
import { turnPermissionMode } from '../../shared/transcript';
import type { Transcript, Turn } from '../../shared/transcriptSchema';
import { turnLimitOf } from '../../shared/turnLimit';
import type { ZeroFactsSnapshot } from '../platform/zeroFacts';

/** The refused run's context for zero's rules: its mode and workspace, and the host's facts. */
export function runContextFor(
	turn: Turn,
	workspaceFolder: string | undefined,
	facts: ZeroFactsSnapshot,
): RunContext {
	return {
		permissionMode: turnPermissionMode(turn),
		cwd: turn.run.cwd ?? workspaceFolder,
		homeDir: facts.homeDir,
		isDirectory: facts.isDirectory,
		shellSandbox: facts.shellSandbox,
		userConfigPath: facts.userConfigPath,
		platform: facts.platform,
	};
}

/** The notices of a transcript file shown read-only: what happened, never a follow-up. */
export function readOnlyNotices(transcript: Transcript, facts: ZeroFactsSnapshot): TurnNotices[] {
	const out: TurnNotices[] = [];
	for (const turn of transcript.turns) {
		const context = runContextFor(turn, turn.run.cwd, facts);
		const items: Record<string, NoticeView> = {};
		for (const item of turn.run.items) {
			const notice = item.kind === 'tool' ? describePermission(item, context) : undefined;
			if (notice) {
				items[item.id] = permissionNoticeView(notice, [], false);
			}
		}
		const limit = turn.run.phase === 'ended' ? turnLimitOf(turn) : undefined;
		const run = limit ? [turnLimitNoticeView(limit, [])] : [];
		if (Object.keys(items).length > 0 || run.length > 0) {
			out.push({ turnId: turn.id, items, run });
		}
	}
	return out;
}
