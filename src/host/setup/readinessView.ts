/** The one setup state the chat shows for what was learned about zero, with one primary action. */
import type { ReadinessView } from '../../shared/protocol';
import type { DiscoveryResult } from '../../zero/discovery';
import { MINIMUM_ZERO_VERSION, type ProbeResult } from '../../zero/setupProbe';

export const INSTALL_COMMANDS = [
	{ label: 'npm', command: 'npm install -g @gitlawb/zero' },
	{ label: 'Go', command: 'go install github.com/Gitlawb/zero/cmd/zero@latest' },
	{
		label: 'Install script',
		command:
			'curl -fsSL https://raw.githubusercontent.com/Gitlawb/zero/main/scripts/install.sh | bash',
	},
];

export const CHECKING: ReadinessView = { state: 'checking', title: 'Checking zero\u2026' };

/** Maps what we learned about zero to the one state the chat shows, with one primary action. */
export function readinessView(
	trusted: boolean,
	located: DiscoveryResult | undefined,
	probe: ProbeResult | undefined,
): ReadinessView {
	if (!trusted) {
		return {
			state: 'untrusted',
			title: 'This workspace is not trusted',
			detail:
				'Zero never starts the zero agent in an untrusted workspace, because zero reads, edits and runs code there. Saved chats stay readable.',
			primaryAction: { label: 'Manage Workspace Trust', command: 'workbench.trust.manage' },
		};
	}
	if (!located) {
		return CHECKING;
	}
	if (!located.found) {
		return {
			state: 'not_found',
			title: 'zero is not installed (or VS Code cannot see it)',
			detail:
				located.settingProblem ??
				'Install zero with one of these commands, then check again. If it is installed, point Zero at it.',
			primaryAction: { label: 'Locate zero\u2026', command: 'zero.locateBinary' },
			secondaryActions: [{ label: 'Check Again', command: 'zero.checkSetup' }],
			commands: INSTALL_COMMANDS,
		};
	}
	if (!probe) {
		return { ...CHECKING, binaryPath: located.path };
	}
	const base = {
		binaryPath: located.path,
		version: probe.version.kind === 'not_zero' ? undefined : probe.version.version,
	};
	switch (probe.version.kind) {
		case 'not_zero':
			return {
				...base,
				state: 'not_zero',
				title: `${located.path} is not the zero agent`,
				detail: `It did not answer "zero --version" like zero does${probe.version.output ? ` (it said: ${probe.version.output})` : ''}. Point Zero at the real binary.`,
				primaryAction: { label: 'Locate zero\u2026', command: 'zero.locateBinary' },
				commands: INSTALL_COMMANDS,
			};
		case 'too_old':
			return {
				...base,
				state: 'too_old',
				title: `zero ${probe.version.version} is too old`,
				detail: `Zero needs zero ${MINIMUM_ZERO_VERSION} or newer (stream-json schema 2). Upgrade with "zero upgrade" or reinstall.`,
				primaryAction: { label: 'Check Again', command: 'zero.checkSetup' },
				commands: [{ label: 'Upgrade', command: 'zero upgrade' }, ...INSTALL_COMMANDS],
			};
		case 'ok':
			break;
	}
	if (probe.protocol?.kind === 'mismatch') {
		return {
			...base,
			state: 'too_old',
			title: 'zero speaks a different protocol',
			detail: `This zero does not produce the stream-json schema 2 this extension reads (${probe.protocol.detail}). Upgrade zero or the extension.`,
			primaryAction: { label: 'Check Again', command: 'zero.checkSetup' },
			commands: [{ label: 'Upgrade', command: 'zero upgrade' }],
		};
	}
	if (probe.provider?.kind === 'none') {
		return noProviderView(base, probe.provider.detail);
	}
	return {
		...base,
		state: 'ready',
		title: 'Ready',
		detail:
			probe.provider?.kind === 'ok'
				? `${probe.provider.provider.name ?? 'provider'} \u00b7 ${probe.provider.provider.model ?? 'default model'}`
				: undefined,
	};
}

export function noProviderView(
	base: { binaryPath?: string; version?: string },
	detail: string,
): ReadinessView {
	const sentence = /[.!?]$/.test(detail.trim()) ? detail.trim() : `${detail.trim()}.`;
	return {
		...base,
		state: 'no_provider',
		title: 'Connect a model provider',
		detail: `${sentence} zero sets this up itself (Zero never asks for or stores API keys): run its setup in a terminal, or set a provider key such as OPENAI_API_KEY in "zero.env".`,
		primaryAction: { label: 'Run zero setup in a Terminal', command: 'zero.connectProvider' },
		secondaryActions: [{ label: 'Check Again', command: 'zero.checkSetup' }],
	};
}
