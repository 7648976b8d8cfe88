/**
 * What an empty chat offers a newcomer: a few prompts that work without any setup. A button puts
 * its prompt in the message box (nothing is sent), so the user can read and change it first.
 */
import { h } from './dom';
import { actionAttrs } from './viewActions';

export interface StarterPrompt {
	label: string;
	/** What the message box gets; a prompt ending in a space waits for the user to finish it. */
	text: string;
}

export const STARTER_PROMPTS: readonly StarterPrompt[] = [
	{
		label: 'Explain this workspace',
		text: 'Explain this workspace: what it does, its main parts and how they fit together, and where to start reading.',
	},
	{
		label: 'Find likely bugs',
		text: 'Look through this workspace for likely bugs. List the most serious ones first, each with its file and line, and do not change any files yet.',
	},
	{ label: 'Write tests for\u2026', text: 'Write tests for ' },
	{
		label: 'Review my uncommitted changes',
		text: 'Review my uncommitted changes (git diff): explain what they do and point out anything risky or unfinished.',
	},
];

/** The starter prompt a clicked button stands for (its index comes back from the DOM). */
export function starterPrompt(index: string | undefined): StarterPrompt | undefined {
	const position = Number(index);
	return Number.isInteger(position) ? STARTER_PROMPTS[position] : undefined;
}

export function renderStarterPrompts(): HTMLElement {
	return h(
		'div',
		{ class: 'starters', role: 'group', 'aria-label': 'Starter prompts' },
		h('p', { class: 'starters-intro muted' }, 'Try one of these, or type your own question below:'),
		...STARTER_PROMPTS.map((prompt, index) =>
			h(
				'button',
				{
					type: 'button',
					class: 'button secondary starter-prompt',
					title: `Put this in the message box: ${prompt.text}`,
					...actionAttrs({ action: 'starter', index: String(index) }),
				},
				prompt.label,
			),
		),
		h(
			'p',
			{ class: 'starters-hint muted' },
			'To ask about some code, select it and run \u201cZero: Ask About Selection\u201d.',
		),
	);
}
