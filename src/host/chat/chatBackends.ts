/**
 * A chat's turn backends. Its `zero exec` one is the shared {@link ExecBackend} with what a chat
 * adds to it: zero's command line from the chat's session, model and settings, the raw log, the
 * change tracking and the trace's model-request count. Its ACP one is an {@link AcpChat}.
 */
import { ZERO_DEFAULT_MAX_TURNS } from '../../zero/protocol/cliAnswers';
import { buildExecArgs, type SessionFlag } from '../../zero/protocol/execArgs';
import { buildSpecDraftArgs } from '../../zero/protocol/specProtocol';
import type { ParsedLine } from '../../zero/protocol/parseLine';
import type { ChatBackend, Transcript } from '../../shared/transcriptSchema';
import { AcpChat } from '../acp/acpChat';
import type { ChangeChat } from '../changes/changeService';
import { zeroProcessEnv } from '../platform/zeroBinary';
import { ExecBackend } from '../turns/execBackend';
import { zeroSessionsRoot } from '../../zero/process/sessionStore';
import { asCliResult } from '../platform/zeroCli';
import { SpecialistWatch } from '../spec/specialistWatch';
import type { TurnBackend, TurnHost } from '../turns/turnBackend';
import type { ChatDeps } from './chatDeps';

/**
 * The `--max-turns` the next run gets: the setting, else zero's own in the chat's folder (`zero
 * config --json` there reads that project's config).
 */
export function chatMaxTurns(
	deps: Pick<ChatDeps, 'settings' | 'facts' | 'workspaceFolder'>,
): number {
	return (
		deps.settings().maxTurns ??
		deps.facts.current(deps.workspaceFolder()).maxTurns ??
		ZERO_DEFAULT_MAX_TURNS
	);
}

/** What a backend's factory is given: the chat's deps, the chat, and where its lines go. */
export type ChatBackendFactory = (
	deps: ChatDeps,
	chat: ChangeChat & TurnHost,
	notices: { lineApplied(turnId: string, parsed: ParsedLine): void },
) => TurnBackend | undefined;

/**
 * One line per backend (its traits are in shared/backendTraits.ts). A factory that cannot make its
 * backend in this window answers undefined, and the turn runs on zero exec.
 */
export const CHAT_BACKEND_FACTORIES: { readonly [K in ChatBackend]: ChatBackendFactory } = {
	exec: (deps, chat, notices) =>
		chatExecBackend(deps, chat, (turnId, parsed) => notices.lineApplied(turnId, parsed)),
	acp: (deps, chat) =>
		deps.acp &&
		new AcpChat(deps.acp, {
			transcript: chat.transcript,
			apply: (action) => chat.apply(action),
			now: () => chat.now(),
			approvals: deps.approvals,
			log: deps.log,
		}),
};

/** The backend for a chat's turns of `kind` (exec when the window cannot make that one). */
export function createChatBackend(
	kind: ChatBackend,
	...args: Parameters<ChatBackendFactory>
): TurnBackend {
	const made = CHAT_BACKEND_FACTORIES[kind](...args);
	return made ?? chatExecBackend(args[0], args[1], (t, p) => args[2].lineApplied(t, p));
}

export function chatExecBackend(
	deps: ChatDeps,
	chat: ChangeChat & TurnHost,
	lineApplied: (turnId: string, parsed: ParsedLine) => void,
): ExecBackend {
	const transcript = chat.transcript;
	const specialists = new SpecialistWatch({
		run: async (args, options) => asCliResult(await deps.zeroCli.run(args, options)),
		sessionsRoot: () => {
			const root = zeroSessionsRoot(zeroProcessEnv(deps.settings()), {
				cwd: deps.workspaceFolder() ?? '.',
			});
			return root.ok ? root.root : undefined;
		},
		cwd: () => deps.workspaceFolder() ?? '.',
		transcript,
		apply: (action) => chat.apply(action),
		...(deps.specialistGate ? { gate: deps.specialistGate } : {}),
	});
	return new ExecBackend(chat, {
		launcher: deps.launcher,
		log: deps.log,
		// zero's sandbox policy and turn budget are asked for before every run (zero's CLI refuses
		// in an untrusted workspace, and then nothing runs anyway).
		prepare: (trusted) =>
			trusted ? deps.facts.beforeRun(deps.workspaceFolder()) : Promise.resolve(),
		plan: (_turnId, request, model) => {
			const settings = deps.settings();
			// A spec draft and the run that implements a spec are new zero sessions (zero refuses
			// --use-spec with --resume, and refuses to resume its spec-impl session).
			const ownSession = request.kind === 'spec-draft' || request.kind === 'spec-impl';
			const session: SessionFlag = ownSession
				? { kind: 'new', id: `vscode-${transcript.id}-${transcript.turns.length + 1}` }
				: chatSessionFlag(transcript);
			const tracePath = deps.traces.pathFor(transcript.id);
			// Always explicit, so a run stopped at the limit can be recognized (see describeTurnLimit).
			const maxTurns = chatMaxTurns(deps);
			if (request.kind === 'spec-draft') {
				// No --trace, --permission-mode or --no-completion-gate: zero refuses them with --use-spec.
				return {
					args: buildSpecDraftArgs({
						cwd: deps.workspaceFolder() ?? '.',
						sessionId: session.id,
						model,
						maxTurns,
						addDirs: request.addDirs,
						extraArgs: settings.extraArgs,
					}),
					env: zeroProcessEnv(settings),
					label: `chat ${transcript.id} (spec draft)`,
					session,
					maxTurns,
				};
			}
			return {
				args: buildExecArgs({
					cwd: deps.workspaceFolder() ?? '.',
					permissionMode: request.permissionMode,
					session,
					model,
					maxTurns,
					addDirs: request.addDirs,
					tracePath,
					extraArgs: settings.extraArgs,
				}),
				env: zeroProcessEnv(settings),
				label: `chat ${transcript.id}`,
				session,
				tracePath,
				maxTurns,
			};
		},
		openRaw: (turnId) => deps.store.openRawRun(transcript.id, turnId),
		beginTracking: (turnId, plan, cwd, addDirs) =>
			deps.changes.beginTurn(chat, {
				turnId,
				sessionId: plan.session?.id ?? '',
				newSession: plan.session?.kind === 'new' || plan.session?.kind === 'fork',
				...(plan.session?.kind === 'fork' ? { forkOf: plan.session.from } : {}),
				env: plan.env,
				cwd,
				addDirs,
			}),
		takeModelRequests: (tracePath) => deps.traces.takeModelRequests(tracePath),
		lineApplied: (turnId, parsed) => {
			lineApplied(turnId, parsed);
			specialists.onLine(turnId, parsed);
		},
	});
}

/**
 * How a chat's next run names its zero session: it resumes the chat's session, creates the fork a
 * "Fork from here" chat waits for (`--fork`: zero copies the parent's history), or starts one.
 */
export function chatSessionFlag(
	transcript: Pick<Transcript, 'id' | 'sessionId' | 'pendingFork' | 'turns'>,
): SessionFlag {
	const id = `vscode-${transcript.id}-${transcript.turns.length + 1}`;
	if (transcript.sessionId) {
		return { kind: 'resume', id: transcript.sessionId };
	}
	if (transcript.pendingFork) {
		return { kind: 'fork', id, from: transcript.pendingFork.fromSessionId };
	}
	return { kind: 'new', id };
}
