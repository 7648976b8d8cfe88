/**
 * The live approval on an ACP tool card: what zero will run and zero's own options while it waits
 * (Enter allows once, Escape denies when the approval has the focus), then the answer given.
 */
import type { ToolApproval, ToolItem, Turn } from '../shared/transcriptSchema';
import { h, icon } from './dom';

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
			return `Allow this command for this turn${option.name.includes('outside the sandbox') ? ' (runs outside the sandbox)' : ''}`;
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

/** The command or target zero asks about, from the call's arguments. */
function whatRuns(item: ToolItem, summary: string): string {
	const args = item.args;
	if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
		for (const key of ['cmd', 'command', 'path', 'file_path', 'url', 'query', 'pattern']) {
			const value = (args as Record<string, unknown>)[key];
			if (typeof value === 'string' && value !== '') {
				return value;
			}
			if (Array.isArray(value) && value.every((part) => typeof part === 'string')) {
				return value.join(' ');
			}
		}
	}
	return summary || item.name;
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
	const target = whatRuns(item, summary);
	const allow = allowOnceOption(approval.options);
	const deny = denyOption(approval.options);
	const buttons = approval.options.map((option) =>
		h(
			'button',
			{
				type: 'button',
				class: `button ${option === allow ? 'primary' : 'secondary'} approval-option`,
				'data-action': 'approval',
				'data-turn': turn.id,
				'data-item': item.id,
				'data-option-id': option.optionId,
				title: storesGrant(option)
					? `${option.name}. Saves a zero grant shared with the terminal and zero exec.`
					: option.name,
			},
			optionLabel(option),
		),
	);
	if (!deny) {
		buttons.push(
			h(
				'button',
				{
					type: 'button',
					class: 'button secondary approval-option',
					'data-action': 'approval',
					'data-turn': turn.id,
					'data-item': item.id,
					title: 'zero offers no "deny" here: dismissing fails the call and ends the turn.',
				},
				'Dismiss',
			),
		);
	}
	const grants = approval.options.some(storesGrant);
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
			'aria-label': `zero waits for your approval to run ${item.name}: ${target}. Enter allows once, Escape denies.`,
		},
		h('div', { class: 'approval-title' }, icon('bell-dot'), ' zero waits for your approval'),
		h('pre', { class: 'approval-target' }, target),
		h('div', { class: 'approval-options' }, ...buttons),
		h(
			'div',
			{ class: 'muted approval-hint' },
			'Enter allows once, Escape denies. ',
			grants
				? h(
						'span',
						{},
						'"Always" choices save a zero grant shared with the terminal and zero exec: ',
						h(
							'a',
							{ href: '#', 'data-action': 'run-command', 'data-command': 'zero.manageGrants' },
							'Manage Sandbox Grants',
						),
						'.',
					)
				: undefined,
		),
	);
}

/** The answer a key press gives while a waiting approval has the focus, if any. */
export function approvalKeyAnswer(
	event: KeyboardEvent,
): { turnId: string; itemId: string; optionId?: string } | undefined {
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
		turnId: data.turn ?? '',
		itemId: data.item ?? '',
		...(optionId ? { optionId } : {}),
	};
}
