/** The one setup state the chat shows for what was learned about zero, with one primary action. */
import type { ReadinessView } from '../../shared/protocol';
import type { DiscoveryResult } from '../../zero/process/discovery';
import {
	MINIMUM_ZERO_VERSION,
	type ProbeResult,
	type ProviderProbe,
	type SandboxInfo,
} from '../../zero/protocol/setupProbe';

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
				title: 'This program is not the zero agent',
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
	if (probe.protocol?.kind === 'failed') {
		return {
			...base,
			state: 'zero_error',
			title: 'zero cannot start a run here',
			detail: `A test run (zero exec --list-tools in plan mode) failed${probe.protocol.code ? ` (${probe.protocol.code})` : ''}: ${probe.protocol.detail} Fix zero’s configuration, then check again.`,
			primaryAction: { label: 'Check Again', command: 'zero.checkSetup' },
			secondaryActions: [{ label: 'Show Log', command: 'zero.showLog' }],
		};
	}
	const provider = probe.provider;
	const notReady = provider ? providerProblem(provider) : undefined;
	if (notReady) {
		return noProviderView(base, notReady.detail, notReady.title);
	}
	const current = provider?.current;
	const parts = [
		current ? `${current.name ?? 'provider'} \u00b7 ${current.model ?? 'default model'}` : '',
		provider?.confirmedOnline ? 'no API key needed' : '',
		probe.sandbox ? shellSummary(probe.sandbox) : '',
	].filter(Boolean);
	return {
		...base,
		state: 'ready',
		title: 'Ready',
		detail: parts.length > 0 ? parts.join(' \u00b7 ') : undefined,
	};
}

/** What the chat says about shell commands, from the sandbox policy (never promised blindly). */
export function shellSummary(sandbox: SandboxInfo): string {
	if (sandbox.mode === 'disabled') {
		return 'zero\u2019s sandbox is disabled: tools that need approval run only with unsafe permissions';
	}
	return sandbox.shellSandboxed
		? 'shell commands run in zero\u2019s sandbox'
		: 'shell commands need approval (no native sandbox)';
}

/** Why the provider cannot answer yet, from `zero providers check`; undefined when it can. */
function providerProblem(provider: ProviderProbe): { title?: string; detail: string } | undefined {
	const { check, current } = provider;
	const said = check.message ? `zero said: ${check.message}` : '';
	switch (check.state) {
		case 'ready':
			return undefined;
		case 'no-provider':
			return { detail: said || 'zero has no model provider configured.' };
		case 'missing-key':
			return {
				detail: said || `zero\u2019s provider ${current?.name ?? ''} has no API key.`,
			};
		case 'key-rejected':
			return {
				detail: `The provider rejected zero\u2019s API key${check.message ? ` (${check.message})` : ''}.`,
			};
		case 'unreachable':
			return {
				title: 'zero cannot reach its model provider',
				detail: `${said || 'The provider\u2019s endpoint did not answer.'} Start the server or fix its address in zero\u2019s setup.`,
			};
		case 'unknown':
			// An answer zero has not given before: decide from the active provider alone.
			return current === undefined && /no active provider/i.test(check.message ?? '')
				? { detail: said }
				: undefined;
	}
}

export function noProviderView(
	base: { binaryPath?: string; version?: string },
	detail: string,
	title = 'Connect a model provider',
): ReadinessView {
	const sentence = /[.!?]$/.test(detail.trim()) ? detail.trim() : `${detail.trim()}.`;
	return {
		...base,
		state: 'no_provider',
		title,
		detail: `${sentence} zero sets this up itself (Zero never asks for or stores API keys): run its setup in a terminal, or set a provider key such as OPENAI_API_KEY in "zero.env".`,
		primaryAction: { label: 'Run zero setup in a Terminal', command: 'zero.connectProvider' },
		secondaryActions: [{ label: 'Check Again', command: 'zero.checkSetup' }],
	};
}
