/**
 * The live approval on an ACP tool card: what zero will run and zero's own options while it waits
 * (Enter allows once, Escape denies when the approval has the focus), then the answer given.
 */
import {
	APPROVAL_VALUE_CHARS,
	approvalArguments,
	type ApprovalArgument,
} from '../shared/approvalArgs';
import type {
	ApprovalPreview,
	ToolApproval,
	ToolItem,
	Transcript,
	Turn,
} from '../shared/transcriptSchema';
import { h, icon } from './dom';
import { actionAttrs, type ViewActionOf } from './viewActions';

type PermissionOption = ToolApproval['options'][number];

/** What an option is called on the card; zero's names where they already say it right. */
function optionLabel(option: PermissionOption): string {
	switch (option.optionId) {
		case 'allow':
			return 'Allow once';
		case 'allow_for_session':
			// zero v0.8.0 builds a new sandbox engine per prompt turn, so the grant ends with the turn.
			return 'Allow for this turn';
		case 'allow_prefix_for_session':
			return 'Allow this command for this turn';
		case 'always_allow_prefix':
			return 'Always allow this command';
		case 'always_allow':
			return 'Always allow';
		case 'deny':
			return 'Deny';
		default:
			return option.name || option.optionId;
	}
}

/** "Always" options write a zero grant that the terminal and `zero exec` share. */
function storesGrant(option: PermissionOption): boolean {
	return option.optionId.startsWith('always_');
}

/** The words of a command prefix the model asked zero to remember (`prefix_rule`), if any. */
function prefixRule(rawInput: unknown): string | undefined {
	if (typeof rawInput !== 'object' || rawInput === null) {
		return undefined;
	}
	const rule = (rawInput as Record<string, unknown>).prefix_rule;
	if (
		!Array.isArray(rule) ||
		rule.length === 0 ||
		!rule.every((word) => typeof word === 'string')
	) {
		return undefined;
	}
	const text = rule.join(' ');
	return text.length > 200 ? `${text.slice(0, 200)}\u2026` : text;
}

/** What choosing an option does beyond this one call, and what (if anything) it stores. */
export function optionEffect(
	option: PermissionOption,
	toolName: string,
	rawInput: unknown,
): string {
	const prefix = prefixRule(rawInput);
	const commands = prefix
		? `${toolName} commands starting with \u201c${prefix}\u201d`
		: `this ${toolName} command`;
	switch (option.optionId) {
		case 'allow_for_session':
			return `Allows ${toolName} for the rest of this turn. Nothing is stored.`;
		case 'allow_prefix_for_session':
			return `Allows ${commands} for the rest of this turn${option.name.includes('outside the sandbox') ? ', outside the sandbox' : ''}. Nothing is stored.`;
		case 'always_allow_prefix':
			return `Stores a zero grant for ${commands}${option.name.includes('outside the sandbox') ? ' (they run outside the sandbox)' : ''}; the terminal and zero exec use it too.`;
		case 'always_allow':
			return `Stores a zero grant for ${toolName}; the terminal and zero exec use it too.`;
		default:
			return storesGrant(option)
				? `zero's option "${option.name || option.optionId}": stores a zero grant.`
				: `zero's option "${option.name || option.optionId}".`;
	}
}

function allowOnceOption(options: PermissionOption[]): PermissionOption | undefined {
	return (
		options.find((option) => option.optionId === 'allow') ??
		options.find((option) => option.kind === 'allow_once')
	);
}

function denyOption(options: PermissionOption[]): PermissionOption | undefined {
	return (
		options.find((option) => option.optionId === 'deny') ??
		options.find((option) => option.kind === 'reject_once')
	);
}

/** Where a long text was cut: said on the card, never left silent. */
function cutMarker(cutChars: number): HTMLElement {
	return h(
		'div',
		{ class: 'approval-cut', 'data-cut-chars': String(cutChars) },
		`\u2026 ${cutChars.toLocaleString('en-US')} more characters not shown (the card shows the first ${APPROVAL_VALUE_CHARS.toLocaleString('en-US')}).`,
	);
}

function argumentRow(argument: ApprovalArgument): HTMLElement {
	return h(
		'div',
		{ class: `approval-arg${argument.main ? ' main' : ''}`, 'data-key': argument.key },
		argument.key
			? h(
					'div',
					{
						class: 'approval-arg-key muted',
						title: argument.label === argument.key ? undefined : `zero's argument: ${argument.key}`,
					},
					argument.label,
				)
			: undefined,
		h('pre', { class: argument.main ? 'approval-target' : 'approval-value' }, argument.text),
		argument.cutChars > 0 ? cutMarker(argument.cutChars) : undefined,
		argument.refusal ? h('div', { class: 'approval-refusal' }, argument.refusal) : undefined,
	);
}

/** Every argument of zero's request (not the snapshot's short copy of the call's arguments). */
function requestArguments(
	item: ToolItem,
	approval: ToolApproval,
	summary: string,
): { element: HTMLElement; headline: string } {
	// Approvals saved before the request was kept on them fall back to the call's arguments.
	const rawInput = approval.rawInput !== undefined ? approval.rawInput : item.args;
	const { rows, hiddenArguments } = approvalArguments(approval.toolName ?? item.name, rawInput);
	if (rows.length === 0) {
		const headline = summary || item.name;
		return { element: h('pre', { class: 'approval-target' }, headline), headline };
	}
	const element = h(
		'div',
		{ class: 'approval-args' },
		...rows.map(argumentRow),
		hiddenArguments > 0
			? h(
					'div',
					{ class: 'approval-cut', 'data-hidden-arguments': String(hiddenArguments) },
					`\u2026 ${hiddenArguments} more arguments not shown.`,
				)
			: undefined,
	);
	const first = rows[0];
	const headline = first.key ? `${first.key}: ${first.text}` : first.text;
	return { element, headline };
}

/** A diff line's part: what the sign at its start says (the sign stays: color is not the only cue). */
function diffLineClass(line: string): string {
	if (line.startsWith('@@') || line.startsWith('***')) {
		return 'diff-line diff-meta';
	}
	if (line.startsWith('+')) {
		return 'diff-line diff-added';
	}
	if (line.startsWith('-')) {
		return 'diff-line diff-removed';
	}
	return 'diff-line';
}

/** What a write, edit or patch request would change: the first lines, the rest in the diff editor. */
function renderPreview(turn: Turn, item: ToolItem, preview: ApprovalPreview): HTMLElement {
	if (preview.kind === 'none') {
		return h(
			'div',
			{ class: 'approval-preview muted', 'data-preview': 'none' },
			`No preview of the change: ${preview.reason}.`,
		);
	}
	const counts = `+${preview.added} \u2212${preview.removed}`;
	const title =
		preview.path === undefined
			? `zero's patch (${counts})`
			: `${preview.created ? 'Would create' : 'Would change'} ${preview.path} (${counts})`;
	return h(
		'div',
		{ class: 'approval-preview', 'data-preview': 'diff' },
		h('div', { class: 'approval-preview-title' }, icon('diff'), ` ${title}`),
		h(
			'pre',
			{ class: 'approval-diff', 'aria-label': `The change: ${title}` },
			...preview.lines.map((line) => h('span', { class: diffLineClass(line) }, `${line}\n`)),
		),
		h(
			'div',
			{ class: 'approval-preview-footer' },
			preview.more > 0
				? h(
						'span',
						{ class: 'muted' },
						`${preview.more} more line${preview.more === 1 ? '' : 's'} of the diff not shown. `,
					)
				: undefined,
			h(
				'button',
				{
					type: 'button',
					class: 'button secondary approval-open-diff',
					...actionAttrs({ action: 'approval-diff', turn: turn.id, item: item.id }),
				},
				icon('diff'),
				' Open diff',
			),
		),
	);
}

function settledText(approval: ToolApproval): string {
	const outcome = approval.outcome;
	if (approval.settledBy === 'cancel') {
		return 'Cancelled by Stop: zero did not run it.';
	}
	if (approval.settledBy === 'detached') {
		return 'Withdrawn: the chat was closed while zero waited.';
	}
	if (approval.settledBy === 'process_exit') {
		return 'Withdrawn: zero acp ended while it waited.';
	}
	if (approval.settledBy === 'turn_end') {
		return 'Withdrawn: the turn ended while zero still asked.';
	}
	if (!outcome || outcome.outcome === 'cancelled') {
		return 'Dismissed: zero did not run it and ended the turn.';
	}
	const option = approval.options.find((candidate) => candidate.optionId === outcome.optionId);
	if (!option) {
		return `Answered "${outcome.optionId}".`;
	}
	return option.kind.startsWith('reject')
		? 'Denied: zero did not run it and continues.'
		: `${optionLabel(option)}: allowed.`;
}

export function renderApproval(
	turn: Turn,
	item: ToolItem,
	approval: ToolApproval,
	summary: string,
): HTMLElement {
	if (approval.state !== 'waiting') {
		return h(
			'div',
			{ class: 'approval settled', 'data-approval': approval.state },
			icon(approval.outcome?.outcome === 'selected' ? 'shield' : 'circle-slash'),
			` ${settledText(approval)}`,
		);
	}
	const { element: target, headline } = requestArguments(item, approval, summary);
	const allow = allowOnceOption(approval.options);
	const deny = denyOption(approval.options);
	const button = (option: PermissionOption | undefined, primary: boolean, label: string) =>
		h(
			'button',
			{
				type: 'button',
				class: `button ${primary ? 'primary' : 'secondary'} approval-option`,
				...actionAttrs({
					action: 'approval',
					turn: turn.id,
					item: item.id,
					optionId: option?.optionId,
				}),
				title: option ? option.name : undefined,
			},
			label,
		);
	// The two answers most calls need; zero's other options sit under "More", each with what it stores.
	const main = [
		allow ? button(allow, true, optionLabel(allow)) : undefined,
		deny ? button(deny, false, optionLabel(deny)) : undefined,
	].filter((element) => element !== undefined);
	if (!deny) {
		const dismiss = button(undefined, false, 'Dismiss');
		dismiss.title = 'zero offers no "deny" here: dismissing fails the call and ends the turn.';
		main.push(dismiss);
	}
	const others = approval.options.filter((option) => option !== allow && option !== deny);
	const toolName = approval.toolName ?? item.name;
	const rawInput = approval.rawInput !== undefined ? approval.rawInput : item.args;
	return h(
		'div',
		{
			class: 'approval waiting',
			tabindex: 0,
			role: 'group',
			'data-approval': 'waiting',
			'data-turn': turn.id,
			'data-item': item.id,
			'data-allow': allow?.optionId,
			'data-deny': deny?.optionId,
			'aria-label': `zero waits for your approval to run ${item.name}: ${headline.length > 500 ? `${headline.slice(0, 500)}\u2026` : headline}. Enter allows once, Escape denies.`,
		},
		h('div', { class: 'approval-title' }, icon('bell-dot'), ' zero waits for your approval'),
		target,
		approval.preview ? renderPreview(turn, item, approval.preview) : undefined,
		h('div', { class: 'approval-options' }, ...main),
		others.length > 0
			? h(
					'details',
					{ class: 'approval-more' },
					h('summary', {}, `More (${others.length} other option${others.length === 1 ? '' : 's'})`),
					...others.map((option) =>
						h(
							'div',
							{ class: 'approval-more-option', 'data-option-id': option.optionId },
							button(option, false, optionLabel(option)),
							h(
								'div',
								{ class: 'muted approval-option-effect' },
								optionEffect(option, toolName, rawInput),
								storesGrant(option)
									? h(
											'span',
											{},
											' ',
											h(
												'a',
												{
													href: '#',
													...actionAttrs({ action: 'run-command', command: 'zero.manageGrants' }),
												},
												'Manage Sandbox Grants',
											),
											' lists it.',
										)
									: undefined,
							),
						),
					),
				)
			: undefined,
		h('div', { class: 'muted approval-hint' }, 'Enter allows once, Escape denies.'),
	);
}

/**
 * The answer a key press gives while a waiting approval has the focus, if any: the same view
 * action its buttons carry, so a key and a click are handled in one place.
 */
export function approvalKeyAction(event: KeyboardEvent): ViewActionOf<'approval'> | undefined {
	if (event.key !== 'Enter' && event.key !== 'Escape') {
		return undefined;
	}
	const target = event.target as HTMLElement | null;
	const approval = target?.closest<HTMLElement>('[data-approval="waiting"]');
	// Enter on one of the buttons is that button's own click.
	if (!approval || (event.key === 'Enter' && target !== approval)) {
		return undefined;
	}
	const data = approval.dataset;
	const optionId = event.key === 'Enter' ? data.allow : data.deny;
	if (event.key === 'Enter' && !optionId) {
		return undefined;
	}
	return {
		action: 'approval',
		turn: data.turn ?? '',
		item: data.item ?? '',
		...(optionId ? { optionId } : {}),
	};
}

/** zero's id of the request a waiting tool card shows, from the transcript as zero sent it. */
export function waitingRequestId(
	transcript: Transcript | undefined,
	turnId: string,
	itemId: string,
): ToolApproval['requestId'] | undefined {
	const item = transcript?.turns
		.find((turn) => turn.id === turnId)
		?.run.items.find((candidate) => candidate.id === itemId);
	return item?.kind === 'tool' && item.approval?.state === 'waiting'
		? item.approval.requestId
		: undefined;
}
