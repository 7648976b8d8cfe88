/**
 * The composer's requests to the host besides sending: the @ picker's queries and picks, the /
 * menu's actions, and what a slash line becomes when it is sent (an action, a zero user command's
 * expansion, or plain text). ChatService routes them here.
 */
import type { HostToWebview, WebviewToHost } from '../../shared/protocol';
import type { MentionPicker } from '../mentions/mentionPicker';
import type { ChatDeps } from '../chat/chatDeps';
import type { ChatSession } from '../chat/chatSession';
import { resolveSlash, type SlashAction, type SlashOutcome } from '../composer/slashCommands';

type ComposerRequest = Extract<
	WebviewToHost,
	{ type: 'slash/run' | 'slash/query' | 'mention/query' | 'mention/add' }
>;

export interface ComposerRequestsDeps {
	composerFacts: ChatDeps['composerFacts'];
	messages: ChatDeps['messages'];
	mentions?: Pick<MentionPicker, 'items' | 'resolve'>;
	session(): ChatSession;
	post(message: HostToWebview): void;
	execute(command: string): Thenable<unknown> | Promise<unknown>;
	retry(turnId: string): Promise<void>;
}

export class ComposerRequests {
	constructor(private readonly deps: ComposerRequestsDeps) {}

	/** What sending `text` does; a slash line reads the chat folder's user commands again first. */
	async outcomeOf(text: string): Promise<SlashOutcome> {
		if (!text.trimStart().startsWith('/')) {
			return { kind: 'text' };
		}
		const loaded = await this.deps.composerFacts?.reloadCommands(this.deps.session().folder);
		return resolveSlash(text, loaded?.commands ?? [], loaded?.skipped ?? []);
	}

	async runAction(action: SlashAction): Promise<void> {
		if (action.command === 'turn/retry') {
			const last = this.deps.session().lastTurn;
			if (last) {
				await this.deps.retry(last.id);
			}
			return;
		}
		await this.deps.execute(action.command);
	}

	async handle(message: ComposerRequest): Promise<void> {
		const session = this.deps.session();
		switch (message.type) {
			case 'slash/run': {
				const outcome = resolveSlash(`/${message.name}`, []);
				if (outcome.kind === 'action') {
					await this.runAction(outcome.action);
				}
				return;
			}
			case 'slash/query':
				await this.deps.composerFacts?.reloadCommands(session.folder);
				session.refreshComposer();
				return;
			case 'mention/query': {
				// The chat's folder: a chat of folder B mentions B's files.
				const items = (await this.deps.mentions?.items(message.query, session.folder)) ?? [];
				this.deps.post({ type: 'mention/items', query: message.query, items });
				return;
			}
			case 'mention/add': {
				const picked = await this.deps.mentions?.resolve(message.id, session.folder);
				if (picked?.ok) {
					session.addContext(picked.entry);
				} else if (picked) {
					this.deps.messages.show('warning', `Not added: ${picked.reason}.`);
				}
				return;
			}
		}
	}
}
