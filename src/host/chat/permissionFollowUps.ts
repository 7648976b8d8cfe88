/**
 * The follow-ups a chat offers on a tool call zero refused: which ones can succeed, the exact
 * command lines they run, and preparing one (confirmation, a stored grant) before its re-run.
 */
import {
	describePermission,
	permissionActions,
	rerunPrompt,
	type PermissionActionSpec,
} from '../../shared/permissions';
import type { PermissionActionView } from '../../shared/protocol';
import { itemKey, turnPermissionMode } from '../../shared/transcript';
import type { ToolItem, Transcript, Turn } from '../../shared/transcriptSchema';
import { actionCommands, type ActionCommands } from '../../shared/actionCommands';
import { formatCommandLine } from '../../zero/execArgs';
import type { RunPermissionMode } from '../../zero/permissionModes';
import type { Logger } from '../platform/log';
import type { ZeroSettings } from '../platform/settings';
import type { ZeroCli } from '../platform/zeroCli';

export interface FollowUpDeps {
	settings(): ZeroSettings;
	workspaceFolder(): string | undefined;
	zeroCli: ZeroCli;
	log: Logger;
	confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
	showError(message: string): void;
}

/** What the chat knows now that a re-run needs besides the refused turn. */
export interface ChatRunContext {
	model: string;
	/** Extra write roots the chat uses for turns that did not record their own. */
	addDirs: readonly string[];
	/** The binary the last run used, so offered commands show the real path. */
	binaryForDisplay: string;
}

/** A follow-up that is confirmed and ready: the re-run to start. */
export interface PreparedRerun {
	spec: PermissionActionSpec;
	message: string;
	permissionMode: RunPermissionMode;
	addDirs: string[];
}

export class PermissionFollowUps {
	constructor(private readonly deps: FollowUpDeps) {}

	/** The actions offered for each blocked tool card of a finished turn, keyed by `itemKey`. */
	views(
		transcript: Transcript,
		turn: Turn | undefined,
		chat: ChatRunContext,
	): Map<string, PermissionActionView[]> {
		const views = new Map<string, PermissionActionView[]>();
		if (!turn || turn.run.phase !== 'ended' || transcript.readOnly) {
			return views;
		}
		for (const item of turn.run.items) {
			const specs = item.kind === 'tool' ? blockedActionSpecs(turn, item) : undefined;
			if (specs) {
				views.set(
					itemKey(turn.id, item.id),
					specs.map((spec) =>
						actionView(spec, this.commandsFor(transcript, turn, spec, chat), chat.binaryForDisplay),
					),
				);
			}
		}
		return views;
	}

	/**
	 * Checks that the action is still offered, asks for confirmation when it carries a risk, and
	 * stores a grant when it asks for one. Undefined when the user declined or something failed
	 * (the user has been told).
	 */
	async prepare(
		transcript: Transcript,
		turn: Turn,
		item: ToolItem,
		actionId: string,
		chat: ChatRunContext,
	): Promise<PreparedRerun | undefined> {
		const spec = blockedActionSpecs(turn, item)?.find((candidate) => candidate.id === actionId);
		if (!spec) {
			this.deps.showError('That action is no longer available for this tool call.');
			return undefined;
		}
		const commands = this.commandsFor(transcript, turn, spec, chat);
		if ('risk' in spec) {
			const { commandLine } = actionView(spec, commands, chat.binaryForDisplay);
			const confirmed = await this.deps.confirm(
				spec.label,
				`${spec.risk}\n\nZero will run:\n${commandLine}`,
				spec.id === 'rerun-unsafe' ? 'Re-run Unsafely' : 'Allow and Re-run',
			);
			if (!confirmed) {
				return undefined;
			}
		}
		if (commands.grant) {
			const result = await this.deps.zeroCli.run(commands.grant, {
				cwd: this.deps.workspaceFolder(),
			});
			if (!result.found) {
				this.deps.showError(`${result.message} The grant was not stored.`);
				return undefined;
			}
			if (result.exitCode !== 0) {
				this.deps.showError(
					`zero could not store the grant: ${(result.stderr || result.stdout || result.error || 'unknown error').trim()}`,
				);
				return undefined;
			}
		}
		return {
			spec,
			message: rerunPrompt(item, spec),
			permissionMode: commands.permissionMode,
			addDirs: commands.addDirs,
		};
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
			addDirs: turn.command?.addDirs ?? chat.addDirs,
			model: chat.model || undefined,
			maxTurns: settings.maxTurns,
			extraArgs: settings.extraArgs,
		});
	}
}

/** The follow-ups offered for a tool call zero blocked; undefined when the call was not blocked. */
function blockedActionSpecs(turn: Turn, item: ToolItem): PermissionActionSpec[] | undefined {
	const permissionMode = turnPermissionMode(turn);
	const notice = describePermission(item, { permissionMode });
	return notice?.tone === 'block' ? permissionActions(item, notice, { permissionMode }) : undefined;
}

function actionView(
	spec: PermissionActionSpec,
	commands: ActionCommands,
	binary: string,
): PermissionActionView {
	const grant = commands.grant ? `${formatCommandLine(binary, commands.grant)} && ` : '';
	return {
		id: spec.id,
		label: spec.label,
		commandLine: `${grant}${formatCommandLine(binary, commands.exec)}`,
		// Exactly the follow-ups that carry a risk statement are confirmed before they run.
		needsConfirmation: 'risk' in spec,
		kind: spec.id === 'grant-and-rerun' ? 'grant' : 'rerun',
	};
}
