/**
 * Plan first and the spec review (issue #25): the commands behind the composer's toggle, the spec
 * card's buttons and the spec editor's title bar, and opening a drafted spec beside its Markdown
 * preview when a draft run ends. A spec file is opened only once it is found inside the workspace's
 * `.zero/specs/`; anything else is opened only after the user says so.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findTurn } from '../../shared/transcript';
import type { SpecCard } from '../../shared/specSchema';
import { MAX_NOTE } from '../../zero/protocol/specProtocol';
import { sessionDirectory, zeroSessionsRoot } from '../../zero/process/sessionStore';
import { readBounded } from '../../zero/process/storeFiles';
import { specialistDocument } from '../../zero/protocol/specialists';
import type { ChatSession } from '../chat/chatSession';
import { zeroProcessEnv } from '../platform/zeroBinary';
import { SpecReview, specFileInWorkspace, specRunnerFromZeroCli } from '../spec/specReview';
import {
	pendingSpecFiles,
	runSpecDecision,
	turnOfSpecFile,
	type SpecDecisionKind,
	type SpecFlowDeps,
} from './specReviewFlow';
import { focusChat, type CommandDeps, type Handlers } from './commandDeps';

type SpecCommand =
	| 'zero.planFirst'
	| 'zero.spec.open'
	| 'zero.spec.approve'
	| 'zero.spec.requestChanges'
	| 'zero.spec.reject'
	| 'zero.openSpecialistSession';

/**
 * What the card passes (`turnId`, optionally the note, and the chat it is in); the editor title
 * passes the file's Uri.
 */
type SpecTarget = { turnId?: string; note?: string; chatId?: string } | vscode.Uri | undefined;

const PENDING_KEY = 'zero.spec.pendingFiles';

const ASK: Record<SpecDecisionKind, { title: string; prompt: string }> = {
	approve: {
		title: 'Approve the spec',
		prompt: 'An optional comment for zero (it goes into the implementation prompt)',
	},
	'request-changes': {
		title: 'Request changes to the spec',
		prompt: 'What should change? zero drafts the spec again with this.',
	},
	reject: { title: 'Reject the spec', prompt: 'An optional reason (zero keeps it with the draft)' },
};

function targetTurn(chat: ChatSession, target: SpecTarget): string | undefined {
	if (target instanceof vscode.Uri) {
		return turnOfSpecFile(chat, target.fsPath)?.id;
	}
	if (target?.turnId) {
		return target.turnId;
	}
	// From the palette: the chat's latest spec waiting for a decision.
	return [...chat.transcript.turns].reverse().find((turn) => turn.spec?.state === 'draft')?.id;
}

/** The chat a request came from (the card's view passes its chat), else the active one. */
function chatOf(deps: CommandDeps, target: SpecTarget | { chatId?: string }): ChatSession {
	const live = deps.registry.liveChats();
	const found =
		target instanceof vscode.Uri
			? // The spec editor's title bar: the chat whose draft the file is.
				live.find((chat) => turnOfSpecFile(chat, target.fsPath) !== undefined)
			: live.find((chat) => target?.chatId !== undefined && chat.id === target.chatId);
	return found ?? deps.chats.active;
}

export function specCommands(deps: CommandDeps): Handlers<SpecCommand> {
	// Spec files are under the chat's own folder's .zero/specs (a chat of folder B drafts in B).
	const flow = (chat: ChatSession): SpecFlowDeps => ({
		review: () => {
			const root = chat.folder ?? '.';
			const sessions = zeroSessionsRoot(zeroProcessEnv(deps.settings()), { cwd: root });
			return new SpecReview({
				run: specRunnerFromZeroCli(deps.zeroCli),
				workspaceRoot: root,
				sessionsRoot: sessions.ok ? sessions.root : undefined,
			});
		},
		askNote: (kind, spec, required) =>
			Promise.resolve(
				vscode.window.showInputBox({
					title: `${ASK[kind].title}: ${spec.title}`,
					prompt: ASK[kind].prompt,
					ignoreFocusOut: true,
					validateInput: (value) =>
						value.length > MAX_NOTE
							? `At most ${MAX_NOTE} characters.`
							: required && value.trim() === ''
								? 'Say what to change.'
								: undefined,
				}),
			),
		saveSpecFile: async (spec) => {
			for (const document of vscode.workspace.textDocuments) {
				if (document.isDirty && document.uri.fsPath === spec.specFilePath) {
					await document.save();
				}
			}
		},
		show: (level, message) => deps.messages.show(level, message),
		now: () => Date.now(),
	});
	const decide = (kind: SpecDecisionKind) => async (target?: SpecTarget) => {
		const chat = chatOf(deps, target);
		const turnId = targetTurn(chat, target);
		if (!turnId) {
			deps.messages.show('warning', 'This chat has no spec waiting for review.');
			return false;
		}
		const note = target && !(target instanceof vscode.Uri) ? target.note : undefined;
		const done = await runSpecDecision(chat, turnId, kind, flow(chat), note);
		updatePendingSpecs(chat);
		if (done) {
			await focusChat(deps);
		}
		return done;
	};
	return {
		'zero.planFirst': async (args?: { text?: string }) => {
			const chat = deps.chats.active;
			const text =
				args?.text ??
				(await vscode.window.showInputBox({
					title: 'Plan first',
					prompt: 'What should zero do? It drafts a spec for you to review before any code.',
					ignoreFocusOut: true,
				}));
			if (!text?.trim()) {
				return false;
			}
			await focusChat(deps);
			return chat.send(text, [], { planFirst: true });
		},
		'zero.spec.open': async (target?: SpecTarget) => {
			const chat = chatOf(deps, target);
			const turnId = targetTurn(chat, target);
			const spec = turnId ? findTurn(chat.transcript, turnId)?.spec : undefined;
			if (!spec) {
				deps.messages.show('warning', 'That spec is not in this chat.');
				return false;
			}
			return openSpec(deps, spec, chat.folder);
		},
		'zero.spec.approve': decide('approve'),
		'zero.spec.requestChanges': decide('request-changes'),
		'zero.spec.reject': decide('reject'),
		'zero.openSpecialistSession': async (target?: {
			turnId?: string;
			itemId?: string;
			chatId?: string;
		}) => {
			const chat = chatOf(deps, target ?? {});
			const turn = target?.turnId ? findTurn(chat.transcript, target.turnId) : undefined;
			const item = turn?.run.items.find((candidate) => candidate.id === target?.itemId);
			const sessionId = item?.kind === 'tool' ? item.specialist?.sessionId : undefined;
			const root = zeroSessionsRoot(zeroProcessEnv(deps.settings()), {
				cwd: chat.folder ?? '.',
			});
			if (!sessionId || !root.ok) {
				deps.messages.show('warning', "That specialist's session is not known.");
				return false;
			}
			const dir = sessionDirectory(root.root, sessionId);
			const bytes = dir.ok
				? await readBounded(path.join(dir.value, 'events.jsonl'), 4 * 1024 * 1024, true)
				: dir;
			if (!bytes.ok) {
				deps.messages.show('warning', `The specialist's session cannot be read: ${bytes.reason}.`);
				return false;
			}
			await deps.documents.show(
				`specialist-${sessionId}.md`,
				specialistDocument(sessionId, Buffer.from(bytes.value).toString('utf8')),
				{ language: 'markdown' },
			);
			return true;
		},
	};
}

/**
 * Opens a spec file with its Markdown preview beside it; outside the chat's folder's
 * `.zero/specs` only if confirmed.
 */
export async function openSpec(
	deps: Pick<CommandDeps, 'prompts'>,
	spec: SpecCard,
	root: string | undefined,
): Promise<boolean> {
	const checked = root
		? await specFileInWorkspace(root, spec.specFilePath)
		: ({ ok: false, problem: 'No workspace folder is open.' } as const);
	let file: string;
	if (checked.ok) {
		file = checked.value;
	} else {
		const open = await deps.prompts.confirm(
			`Open ${path.basename(spec.specFilePath)} from outside the workspace?`,
			`${checked.problem} zero named this file for the spec "${spec.title}": ${spec.specFilePath}`,
			'Open anyway',
		);
		if (!open) {
			return false;
		}
		file = spec.specFilePath;
	}
	const uri = vscode.Uri.file(file);
	try {
		const editor = await vscode.window.showTextDocument(uri, {
			preview: false,
			viewColumn: vscode.ViewColumn.One,
		});
		await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
		// Back to the text: it is what the user edits, and VS Code shows the title bar's Approve /
		// Request changes / Reject on the active editor group only.
		await vscode.window.showTextDocument(editor.document, {
			preview: false,
			viewColumn: editor.viewColumn ?? vscode.ViewColumn.One,
			preserveFocus: false,
		});
		return true;
	} catch (error) {
		void vscode.window.showWarningMessage(
			`The spec file could not be opened: ${(error as Error).message}`,
		);
		return false;
	}
}

/** The editor title's Approve / Request changes / Reject show on the chat's specs awaiting review. */
export function updatePendingSpecs(chat: ChatSession): void {
	const files = pendingSpecFiles(chat);
	void vscode.commands.executeCommand('setContext', PENDING_KEY, [
		...files,
		...files.map((file) => vscode.Uri.file(file).path),
	]);
}

/** When a draft run ends with a spec, opens it (the card is already in the chat). */
export function trackSpecDrafts(deps: CommandDeps): vscode.Disposable[] {
	return [
		deps.registry.onRunFinished(({ chat, turn }) => {
			updatePendingSpecs(chat);
			if (turn.spec?.state === 'draft') {
				void openSpec(deps, turn.spec, chat.folder);
			}
		}),
		deps.chats.onDidChangeActive((chat) => updatePendingSpecs(chat)),
	];
}
