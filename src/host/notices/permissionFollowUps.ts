/**
 * The notices a chat shows for a turn (a refused tool call, a run stopped at the turn limit) and
 * the follow-ups offered with them: which ones can succeed given everything the host knows, the
 * exact command lines they run, and preparing one (confirmation, a stored or revoked grant) before
 * its re-run.
 */
import { describePermission } from './permissions';
import { permissionActions, rerunPrompt } from './permissionActions';
import { turnLimitActions, turnLimitOf } from '../../shared/turnLimit';
import { type PermissionActionSpec, type RunContext } from '../../shared/permissionTypes';
import {
	permissionNoticeView,
	turnLimitNoticeView,
	type NoticeAction,
	type NoticeView,
	type TurnNotices,
} from '../../shared/notices';
import { turnPermissionMode } from '../../shared/transcript';
import type { ToolItem, Transcript, Turn } from '../../shared/transcriptSchema';
import { actionCommands, type ActionCommands } from './actionCommands';
import { formatCommandLine } from '../../zero/protocol/execArgs';
import {
	parseGrantList,
	parseRevokeCount,
	removedByRevoke,
	revokeRemovesWholeTool,
	type GrantList,
	type GrantRef,
} from '../../zero/protocol/grants';
import type { RunPermissionMode } from '../../zero/protocol/permissionModes';
import type { Messages, Prompts } from '../platform/confirmations';
import type { Logger } from '../platform/log';
import type { ZeroSettings } from '../platform/settings';
import type { ZeroCli } from '../platform/zeroCli';
import type { ZeroFactsSnapshot } from '../platform/zeroFacts';
import { runContextFor } from './readOnlyNotices';

export { readOnlyNotices, runContextFor } from './readOnlyNotices';

export interface FollowUpDeps {
	settings(): ZeroSettings;
	workspaceFolder(): string | undefined;
	zeroCli: Pick<ZeroCli, 'run'>;
	log: Logger;
	prompts: Prompts;
	messages: Messages;
}

/** What the chat knows now that a notice and a re-run need besides the turn. */
export interface ChatRunContext {
	model: string;
	/** Directories the chat adds to every run (the user chose to keep them). */
	addDirs: readonly string[];
	/** The binary the last run used, so offered commands show the real path. */
	binaryForDisplay: string;
	/** The `--max-turns` the next run gets. */
	maxTurns: number;
	/** The chat's `--trace` file. */
	tracePath?: string;
	facts: ZeroFactsSnapshot;
}

/** A follow-up that is confirmed and ready: the re-run to start. */
export interface PreparedRerun {
	spec: PermissionActionSpec;
	message: string;
	permissionMode: RunPermissionMode;
	addDirs: string[];
	/** An added directory the user asked the chat to keep for later runs. */
	keepDir?: string;
}

export const ADD_DIR_ONCE = 'Re-run with This Directory';
export const ADD_DIR_KEEP = 'Re-run and Keep It for This Chat';

function describeGrant(grant: GrantRef): string {
	return `${grant.toolName}${grant.scope ? ` for ${grant.scope}` : ''}`;
}

/** The grants a revoke removes, one line each, for its confirmation. */
function removalLines(removed: ReturnType<typeof removedByRevoke>): string[] {
	return [
		...removed.grants.map(
			(grant) =>
				`${grant.decision} ${grant.toolName}${grant.scope ? ` for ${grant.scope}` : ' (every path)'}`,
		),
		...removed.commandPrefixes.map(
			(prefix) => `approved command prefix for ${prefix.toolName}: ${prefix.prefix.join(' ')}`,
		),
	];
}

export class PermissionFollowUps {
	constructor(private readonly deps: FollowUpDeps) {}

	/**
	 * Every notice of a turn. Follow-ups are offered once the run ended, and never in a read-only
	 * transcript; while it runs, each tool call's notice comes without actions.
	 */
	turnNotices(transcript: Transcript, turn: Turn, chat: ChatRunContext): TurnNotices {
		const settled = turn.run.phase === 'ended';
		const offer = settled && !transcript.readOnly;
		const items: Record<string, NoticeView> = {};
		for (const item of turn.run.items) {
			if (item.kind !== 'tool') {
				continue;
			}
			const view = this.toolNotice(transcript, turn, item, chat, offer);
			if (view) {
				items[item.id] = view;
			}
		}
		const run: NoticeView[] = [];
		const limit = settled ? turnLimitOf(turn) : undefined;
		if (limit) {
			const actions = offer
				? turnLimitActions(limit).map((spec) =>
						this.actionView(spec, this.commandsFor(transcript, turn, spec, chat), chat),
					)
				: [];
			run.push(turnLimitNoticeView(limit, actions));
		}
		return { turnId: turn.id, items, run };
	}

	/** One tool call's notice, as the run goes on (no actions yet). */
	liveToolNotice(
		transcript: Transcript,
		turn: Turn,
		item: ToolItem,
		chat: ChatRunContext,
	): NoticeView | undefined {
		return this.toolNotice(transcript, turn, item, chat, false);
	}

	private toolNotice(
		transcript: Transcript,
		turn: Turn,
		item: ToolItem,
		chat: ChatRunContext,
		offer: boolean,
	): NoticeView | undefined {
		const context = this.context(turn, chat);
		const notice = describePermission(item, context);
		if (!notice) {
			return undefined;
		}
		const specs = offer && notice.tone === 'block' ? permissionActions(item, notice, context) : [];
		return permissionNoticeView(
			notice,
			specs.map((spec) =>
				this.actionView(spec, this.commandsFor(transcript, turn, spec, chat), chat),
			),
			turn.run.phase === 'ended',
		);
	}

	/** The follow-ups offered now for a tool call (by item id) or the run (no item id). */
	offeredSpecs(
		turn: Turn,
		itemId: string | undefined,
		chat: ChatRunContext,
	): PermissionActionSpec[] {
		if (turn.run.phase !== 'ended') {
			return [];
		}
		if (itemId === undefined) {
			const limit = turnLimitOf(turn);
			return limit ? turnLimitActions(limit) : [];
		}
		const item = toolItem(turn, itemId);
		if (!item) {
			return [];
		}
		const context = this.context(turn, chat);
		const notice = describePermission(item, context);
		return notice?.tone === 'block' ? permissionActions(item, notice, context) : [];
	}

	/**
	 * Checks that the action is still offered, asks for confirmation where it needs one, and stores or
	 * revokes a grant when it asks for that. Undefined when the user declined or something failed
	 * (the user has been told).
	 */
	async prepare(
		transcript: Transcript,
		turn: Turn,
		itemId: string | undefined,
		actionId: string,
		chat: ChatRunContext,
	): Promise<PreparedRerun | undefined> {
		if (transcript.readOnly) {
			return undefined;
		}
		const spec = this.offeredSpecs(turn, itemId, chat).find(
			(candidate) => candidate.id === actionId,
		);
		if (!spec) {
			this.deps.messages.show('error', 'That action is no longer available.');
			return undefined;
		}
		const commands = this.commandsFor(transcript, turn, spec, chat);
		const commandLine = this.actionView(spec, commands, chat).commandLine ?? '';
		let keepDir: string | undefined;
		if (spec.id === 'rerun-add-dir') {
			const choice = await this.deps.prompts.choose(
				`Let zero read and write in ${spec.dir}?`,
				`${spec.dir} is outside the workspace. The re-run adds it for zero (--add-dir): zero may read, create and change files anywhere in it. Keep it for this chat only if later runs need it too; you can remove it from the chat at any time.\n\nZero will run:\n${commandLine}`,
				[ADD_DIR_ONCE, ADD_DIR_KEEP],
			);
			if (choice === undefined) {
				return undefined;
			}
			keepDir = choice === ADD_DIR_KEEP ? spec.dir : undefined;
		} else if (spec.id === 'revoke-and-rerun') {
			if (!(await this.confirmRevoke(spec, commandLine))) {
				return undefined;
			}
		} else if ('risk' in spec) {
			const confirmed = await this.deps.prompts.confirm(
				spec.label,
				`${spec.risk}\n\nZero will run:\n${commandLine}`,
				spec.id === 'rerun-unsafe' ? 'Re-run Unsafely' : 'Allow and Re-run',
			);
			if (!confirmed) {
				return undefined;
			}
		}
		if (commands.grant && !(await this.runGrantCommand(spec, commands.grant))) {
			return undefined;
		}
		return {
			spec,
			message: rerunPrompt(itemId === undefined ? undefined : toolItem(turn, itemId), spec),
			permissionMode: commands.permissionMode,
			addDirs: commands.addDirs,
			keepDir,
		};
	}

	/** Shows what revoking removes (zero's own list) and asks; false when declined or already gone. */
	private async confirmRevoke(
		spec: Extract<PermissionActionSpec, { id: 'revoke-and-rerun' }>,
		commandLine: string,
	): Promise<boolean> {
		const list = await this.grantList();
		let removes = '';
		if (list) {
			const lines = removalLines(removedByRevoke(spec.grant, list));
			if (lines.length === 0) {
				this.deps.messages.show(
					'error',
					`zero no longer stores a grant that denies ${describeGrant(spec.grant)} (zero sandbox grants list). Zero did not re-run: the call was refused for another reason now, so run it again yourself to see why.`,
				);
				return false;
			}
			removes = `\n\nzero will remove${revokeRemovesWholeTool(spec.grant) ? ' every grant it stores for this tool' : ''}:\n${lines.map((line) => `\u2022 ${line}`).join('\n')}`;
		}
		return this.deps.prompts.confirm(
			spec.label,
			`${spec.risk}${removes}\n\nZero will run:\n${commandLine}`,
			'Revoke and Re-run',
		);
	}

	private async grantList(): Promise<GrantList | undefined> {
		const result = await this.deps.zeroCli.run(['sandbox', 'grants', 'list', '--json'], {
			cwd: this.deps.workspaceFolder(),
		});
		return result.found && result.exitCode === 0 ? parseGrantList(result.stdout) : undefined;
	}

	/** Stores or revokes the grant; false (the user told) when zero did not do it. */
	private async runGrantCommand(spec: PermissionActionSpec, args: string[]): Promise<boolean> {
		const revoking = spec.id === 'revoke-and-rerun';
		const what = revoking ? 'revoke the grant' : 'store the grant';
		const result = await this.deps.zeroCli.run(args, { cwd: this.deps.workspaceFolder() });
		if (!result.found) {
			this.deps.messages.show('error', `${result.message} zero did not ${what}.`);
			return false;
		}
		if (result.exitCode !== 0) {
			this.deps.messages.show(
				'error',
				`zero could not ${what}: ${(result.stderr || result.stdout || result.error || 'unknown error').trim()}`,
			);
			return false;
		}
		if (spec.id !== 'revoke-and-rerun') {
			return true;
		}
		const revoked = parseRevokeCount(result.stdout);
		if (revoked === undefined) {
			this.deps.messages.show(
				'error',
				`zero did not say how many grants it revoked (${result.stdout.trim().slice(0, 200) || 'no answer'}). Zero did not re-run.`,
			);
			return false;
		}
		if (revoked === 0) {
			this.deps.messages.show(
				'error',
				`zero revoked nothing: no stored grant matched ${describeGrant(spec.grant)}. Zero did not re-run, because zero would refuse it the same way.`,
			);
			return false;
		}
		this.deps.log.info(`zero revoked ${revoked} grant(s) for ${spec.grant.toolName}.`);
		this.deps.messages.show(
			'info',
			`zero revoked ${revoked} grant${revoked === 1 ? '' : 's'} for ${spec.grant.toolName}.`,
		);
		return true;
	}

	private context(turn: Turn, chat: ChatRunContext): RunContext {
		return runContextFor(turn, this.deps.workspaceFolder(), chat.facts);
	}

	private commandsFor(
		transcript: Transcript,
		turn: Turn,
		spec: PermissionActionSpec,
		chat: ChatRunContext,
	): ActionCommands {
		const settings = this.deps.settings();
		return actionCommands(spec, {
			cwd: this.deps.workspaceFolder() ?? '.',
			sessionId: transcript.sessionId ?? turn.run.sessionId ?? 'session-not-started',
			permissionMode: turnPermissionMode(turn),
			// The refused run's extra directories and the ones the chat keeps now.
			addDirs: [...new Set([...(turn.command?.addDirs ?? []), ...chat.addDirs])],
			model: chat.model || undefined,
			maxTurns: chat.maxTurns,
			tracePath: chat.tracePath,
			extraArgs: settings.extraArgs,
		});
	}

	private actionView(
		spec: PermissionActionSpec,
		commands: ActionCommands,
		chat: ChatRunContext,
	): NoticeAction {
		const binary = chat.binaryForDisplay;
		const grant = commands.grant ? `${formatCommandLine(binary, commands.grant)} && ` : '';
		return {
			id: spec.id,
			label: spec.label,
			commandLine: `${grant}${formatCommandLine(binary, commands.exec)}`,
			description:
				spec.id === 'rerun-add-dir'
					? `Adds ${spec.dir} for the re-run; you choose whether the chat keeps it.`
					: spec.id === 'continue'
						? 'Resumes the same zero session with a fresh turn budget.'
						: undefined,
			// Risky, permanent, or outside the workspace: a modal confirmation comes first.
			needsConfirmation: 'risk' in spec || spec.id === 'rerun-add-dir',
			...(spec.id === 'rerun-unsafe' || ('mode' in spec && spec.mode === 'unsafe')
				? { unsafe: true }
				: {}),
		};
	}
}

function toolItem(turn: Turn, itemId: string): ToolItem | undefined {
	return turn.run.items.find(
		(candidate): candidate is ToolItem => candidate.kind === 'tool' && candidate.id === itemId,
	);
}
