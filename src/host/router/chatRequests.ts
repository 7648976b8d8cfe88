/** What a chat view's requests do to the chat it shows (the webview protocol's host side). */
import * as vscode from 'vscode';
import type { WebviewToHost } from '../../shared/protocol';
import type { ChatViewActions } from '../views/viewActions';
import {
	dispatchRequest,
	isViewRequest,
	type RequestHandlerMap,
	type ViewConnection,
	type ViewRequestContext,
	type ViewRequestType,
} from '../views/requestTable';
import { chatForkDeps } from '../conversation/chatForkDeps';
import type { ChatSession } from '../chat/chatSession';
import type { ChatSlot } from './chatSlot';
import { rerunTurn } from '../conversation/conversationActions';
import { openApprovalDiff } from '../acp/approvalDiff';
import { forkFromTurn } from '../conversation/forkChat';
import type { Transcript } from '../../shared/transcriptSchema';
import type { ComposerRequests } from './composerRequests';

const SPEC_ACTION_COMMANDS = {
	open: 'zero.spec.open',
	approve: 'zero.spec.approve',
	'request-changes': 'zero.spec.requestChanges',
	reject: 'zero.spec.reject',
} as const;

/** What the requests need of the views beyond the chat itself. */
export interface ChatRequestHost {
	readonly viewActions: ChatViewActions;
	readonly viewRequests: RequestHandlerMap<ViewRequestContext, ViewRequestType>;
	remember(text: string): void;
	/** Shows a new chat in `slot`. */
	newChatIn(slot: ChatSlot): Promise<void>;
	/** Shows saved chat `id` in `slot`; false when it is not saved any more. */
	openIn(slot: ChatSlot, id: string): Promise<boolean>;
	/** Saves a chat made here (a fork) and shows it in `slot`. */
	showNewTranscript(slot: ChatSlot, transcript: Transcript): Promise<void>;
	/** The composer's @ and / requests of the chat in `slot`. */
	composerRequestsFor(slot: ChatSlot): ComposerRequests;
}

export async function handleChatRequest(
	host: ChatRequestHost,
	slot: ChatSlot,
	message: WebviewToHost,
	view: ViewConnection | undefined,
): Promise<void> {
	const session: ChatSession = slot.session;
	// The chat's own deps: everything a request does works in the chat's folder.
	const deps = session.chatDeps;
	if (isViewRequest(message)) {
		// The test API's messages come from no view: a view's own requests need one.
		if (view) {
			await dispatchRequest(host.viewRequests, message, {
				view,
				transcript: () => session.transcript,
				toolDetails: (turnId, itemId) => slot.toolDetails(turnId, itemId),
			});
		}
		return;
	}
	switch (message.type) {
		case 'chat/send': {
			const composer = host.composerRequestsFor(slot);
			const slash = await composer.outcomeOf(message.text);
			if (slash.kind === 'action') {
				await composer.runAction(slash.action);
				return;
			}
			if (slash.kind === 'refused') {
				deps.messages.show('warning', slash.message);
				return;
			}
			if (slash.kind === 'plan') {
				if (session.send(slash.text, message.images, { planFirst: true })) {
					host.remember(message.text);
				}
				return;
			}
			const expanded =
				slash.kind === 'expanded' ? { prompt: slash.prompt, command: slash.command } : undefined;
			if (session.send(message.text, message.images, expanded ? { expanded } : {})) {
				host.remember(message.text);
			}
			return;
		}
		case 'slash/run':
		case 'slash/query':
		case 'mention/query':
		case 'mention/add':
			await host.composerRequestsFor(slot).handle(message);
			return;
		case 'chat/stop':
			session.stop();
			return;
		case 'composer/setPlanFirst':
			session.setPlanFirst(message.on);
			return;
		case 'specialist/open':
			// The command acts on the chat this view shows, named by its id.
			await vscode.commands.executeCommand('zero.openSpecialistSession', {
				turnId: message.turnId,
				itemId: message.itemId,
				chatId: session.id,
			});
			return;
		case 'spec/action':
			// The spec commands (specCommands.ts) ask for the note and act on this view's chat.
			await vscode.commands.executeCommand(SPEC_ACTION_COMMANDS[message.action], {
				turnId: message.turnId,
				chatId: session.id,
			});
			return;
		case 'chat/retry': {
			// The same words in the same chat: an exec chat resumes zero's session, as any message;
			// a spec draft is asked for again (Ask Again after a draft that ended without a spec).
			const turn = session.transcript.turns.find((candidate) => candidate.id === message.turnId);
			const prompt = turn?.prompt;
			const planFirst = turn?.command?.kind === 'spec-draft';
			if (prompt && session.send(prompt.text, [], planFirst ? { planFirst } : {})) {
				host.remember(prompt.text);
			}
			return;
		}
		case 'chat/new':
			await host.newChatIn(slot);
			return;
		case 'chat/open':
			if (!(await host.openIn(slot, message.chatId))) {
				deps.messages.show('warning', 'That chat is not saved any more.');
			}
			return;
		case 'queue/remove':
			session.removeQueued(message.index);
			return;
		case 'composer/setMode':
			session.setPermissionMode(message.mode);
			return;
		case 'composer/setModel':
			session.setModel(message.model);
			return;
		case 'context/remove':
			session.removeContext(message.chipId);
			return;
		case 'composer/setBackend':
			session.setBackend(message.backend);
			return;
		case 'approval/answer':
			session.answerApproval(message.requestId, message.optionId);
			return;
		case 'approval/diff':
			await openApprovalDiff(
				host.viewActions,
				deps.messages,
				session.transcript,
				session.folder,
				message.turnId,
				message.itemId,
			);
			return;
		case 'notice/action':
			await session.notices.runAction(message.turnId, message.itemId, message.actionId);
			return;
		case 'addDir/remove':
			session.removeAddDir(message.dir);
			return;
		case 'command/run':
			slot.focus();
			await host.viewActions.execute(message.command);
			return;
		case 'changes/review':
			await deps.changes.review(session, message.turnId);
			return;
		case 'changes/openFile':
			await deps.changes.openFile(session, message.turnId, message.path);
			return;
		case 'changes/reviewHunks':
			await vscode.commands.executeCommand(
				'zero.reviewFileHunks',
				session.id,
				message.turnId,
				message.path,
			);
			return;
		case 'changes/undo':
			await deps.changes.undo(session, message.turnId);
			return;
		case 'turn/edit':
		case 'turn/retry': {
			const edited = message.type === 'turn/edit' ? message.text : undefined;
			const outcome = await rerunTurn(session, message.turnId, edited, {
				undo: (turnId, purpose) => deps.changes.undo(session, turnId, purpose),
				confirm: (text, detail, label) => deps.prompts.confirm(text, detail, label),
			});
			if (outcome.kind === 'refused' || (outcome.kind === 'failed' && !outcome.shown)) {
				// The undo shows its own refusals and failures; these are the edit's.
				deps.messages.show('warning', outcome.message);
			} else if (outcome.kind === 'sent' && edited !== undefined) {
				host.remember(edited);
			}
			return;
		}
		case 'turn/fork': {
			const outcome = await forkFromTurn(
				session,
				message.turnId,
				chatForkDeps(deps, session, (transcript) => host.showNewTranscript(slot, transcript)),
			);
			if (outcome.kind === 'refused' || (outcome.kind === 'failed' && !outcome.shown)) {
				deps.messages.show('warning', outcome.message);
			}
			return;
		}
		default:
			// A new message type must get a case here or in the view table: this does not compile.
			return unhandled(message);
	}
}

function unhandled(message: never): never {
	throw new Error(`No handler for the chat view's message ${(message as { type: string }).type}`);
}
