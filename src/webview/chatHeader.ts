/**
 * The chat view's header: the chat's title, model, session id (click to copy), token totals and
 * Review All; the starter prompts while the chat is empty. Re-rendered only when what it shows
 * changed.
 */
import { countChangedFiles } from '../shared/changeCounts';
import type { ForkOrigin } from '../shared/forkOrigin';
import type { WebviewRunnableCommand } from '../shared/protocol';
import type { Transcript } from '../shared/transcriptSchema';
import { formatTokens, h, icon } from './dom';
import { renderReviewAllButton } from './renderChanges';
import { renderStarterPrompts } from './starterPrompts';
import { actionAttrs } from './viewActions';

export class ChatHeader {
	readonly element = h('header', { class: 'chat-header' });
	private signature = '';

	render(transcript: Transcript): void {
		const usage = transcript.usage;
		const changedFiles = transcript.readOnly ? 0 : countChangedFiles(transcript).files;
		const origin = transcript.forkedFrom;
		const signature = `${transcript.id}|${transcript.title}|${transcript.model}|${transcript.sessionId}|${usage.totalTokens}|${transcript.turns.length === 0}|${changedFiles}|${transcript.pendingFork !== undefined}|${transcript.folder}|${transcript.worktree?.name}|${transcript.worktree?.state}`;
		if (signature === this.signature) {
			return;
		}
		this.signature = signature;
		this.element.replaceChildren(
			h('div', { class: 'chat-title', title: transcript.title }, transcript.title),
			h(
				'div',
				{ class: 'chat-meta muted' },
				transcript.folder && !transcript.worktree ? renderFolder(transcript) : undefined,
				renderWorktree(transcript),
				transcript.model
					? h(
							'span',
							{ title: transcript.provider ? `Provider: ${transcript.provider}` : undefined },
							icon('sparkle'),
							` ${transcript.model}`,
						)
					: undefined,
				transcript.sessionId
					? h(
							'button',
							{
								type: 'button',
								class: 'icon-button session-id',
								title: `zero session ${transcript.sessionId} (click to copy)`,
								'aria-label': 'Copy the zero session id',
								...actionAttrs({ action: 'copy-text', text: transcript.sessionId }),
							},
							icon('link'),
						)
					: undefined,
				usage.requests > 0
					? h(
							'span',
							{
								title: `${usage.promptTokens} in, ${usage.completionTokens} out over ${usage.requests} requests`,
							},
							icon('dashboard'),
							` ${formatTokens(usage.totalTokens)} tokens this chat`,
						)
					: undefined,
				changedFiles > 0 ? renderReviewAllButton(changedFiles) : undefined,
			),
		);
		if (origin) {
			this.element.append(renderForkOrigin(origin, transcript.pendingFork !== undefined));
		}
		if (transcript.turns.length === 0 && !transcript.readOnly) {
			this.element.append(renderStarterPrompts());
		}
	}
}

/** Where a forked chat came from, with the way back to its parent. */
function renderForkOrigin(origin: ForkOrigin, pending: boolean): HTMLElement {
	return h(
		'div',
		{ class: 'fork-origin muted', role: 'note' },
		icon('repo-forked'),
		' Forked from ',
		h(
			'button',
			{
				type: 'button',
				class: 'link-button',
				title: `Open the chat “${origin.title}”`,
				...actionAttrs({ action: 'open-chat', chat: origin.chatId }),
			},
			origin.title,
		),
		forkPoint(origin),
		pending
			? '. The messages above are that chat’s; your next message makes zero’s fork of it.'
			: '. The messages above are that chat’s.',
	);
}

/**
 * The folder zero works in (a multi-root workspace); before the chat's first message a button
 * that chooses another.
 */
function renderFolder(transcript: Transcript): HTMLElement {
	const folder = transcript.folder ?? '';
	const label = [icon('folder'), ` ${folderLabel(folder)}`];
	if (transcript.turns.length > 0 || transcript.readOnly) {
		return h('span', { class: 'chat-folder', title: `zero works in ${folder}` }, ...label);
	}
	return h(
		'button',
		{
			type: 'button',
			class: 'link-button chat-folder',
			title: `zero works in ${folder}. Click to choose another folder before the first message.`,
			'aria-label': `Folder: ${folderLabel(folder)}. Choose another folder for this chat`,
			...actionAttrs({ action: 'run-command', command: 'zero.changeChatFolder' }),
		},
		...label,
	);
}

/**
 * A worktree chat's worktree with what can be done with it; for a chat without turns, the way
 * into one.
 */
function renderWorktree(transcript: Transcript): HTMLElement | undefined {
	const worktree = transcript.worktree;
	const button = (label: string, command: WebviewRunnableCommand, title: string) =>
		h(
			'button',
			{
				type: 'button',
				class: 'link-button',
				title,
				...actionAttrs({ action: 'run-command', command }),
			},
			label,
		);
	if (!worktree) {
		return transcript.turns.length === 0 && !transcript.readOnly
			? h(
					'span',
					{ class: 'chat-worktree' },
					button(
						'In its own worktree',
						'zero.moveChatToWorktree',
						'zero makes a git worktree from the last commit; every turn of this chat runs there, apart from the folder',
					),
				)
			: undefined;
	}
	const from = transcript.folder ? ` of ${folderLabel(transcript.folder)}` : '';
	const badge = h(
		'span',
		{
			class: 'chat-worktree-name',
			title: `zero works in ${worktree.path}, a git worktree${from} made at ${worktree.baseCommit.slice(0, 7)}`,
		},
		icon('git-branch'),
		` worktree ${worktree.name}${from}`,
	);
	if (worktree.state !== 'active') {
		return h('span', { class: 'chat-worktree' }, badge, ` (${worktree.state})`);
	}
	if (transcript.readOnly || transcript.turns.length === 0) {
		return h('span', { class: 'chat-worktree' }, badge);
	}
	return h(
		'span',
		{ class: 'chat-worktree', role: 'group', 'aria-label': 'The worktree' },
		badge,
		' ',
		button(
			'Review',
			'zero.reviewWorktree',
			'Review everything the worktree changed since it was made',
		),
		' \u00b7 ',
		button('Apply', 'zero.applyWorktree', 'Apply the worktree to the folder (asks first)'),
		' \u00b7 ',
		button('Discard', 'zero.discardWorktree', 'Discard the worktree (asks first)'),
	);
}

/**
 * Where the fork branched: "at message 2", and the message's words unless the title already says
 * them (a chat is titled after its first message: "Forked from hello… at “hello…”" said it twice).
 */
function forkPoint(origin: ForkOrigin): string {
	const plain = (text: string) =>
		text
			.replace(/\u2026$/, '')
			.trim()
			.toLowerCase();
	const [title, excerpt] = [plain(origin.title), plain(origin.excerpt)];
	const repeats = excerpt === '' || title.startsWith(excerpt) || excerpt.startsWith(title);
	const words = repeats ? '' : ` \u201c${origin.excerpt}\u201d`;
	return origin.message !== undefined
		? ` at message ${origin.message}${words ? `,${words}` : ''}`
		: words
			? ` at${words}`
			: '';
}

/** The last part of a folder path (either separator: the host may be Windows). */
function folderLabel(folder: string): string {
	const parts = folder.split(/[\\/]/).filter((part) => part !== '');
	return parts.at(-1) ?? folder;
}
