/**
 * Zero: Manage Sandbox Grants: every grant zero stores (tool-wide, file, directory and host grants,
 * and approved command prefixes), revoked by the grant's own scope with the count zero reports.
 */
import { formatCommandLine } from '../../zero/protocol/execArgs';
import {
	parseGrantList,
	parseRevokeCount,
	removedByRevoke,
	revokeGrantArgs,
	type GrantList,
	type GrantRef,
} from '../../zero/protocol/grants';
import type { Messages, PickItem, Prompts } from '../platform/confirmations';
import type { ZeroCli } from '../platform/zeroCli';

export interface SandboxGrantsDeps {
	zeroCli: Pick<ZeroCli, 'run'>;
	prompts: Prompts;
	messages: Messages;
	workspaceFolder(): string | undefined;
}

function scopeText(grant: GrantList['grants'][number]): string {
	if (!grant.scope) {
		return 'every path (tool-wide)';
	}
	return grant.scopeKind ? `${grant.scopeKind} ${grant.scope}` : grant.scope;
}

/** One pick item per stored grant and command prefix, each naming what it is. */
export function grantPickItems(list: GrantList): PickItem<GrantRef>[] {
	return [
		...list.grants.map((grant) => ({
			label: `${grant.decision} ${grant.toolName}${grant.scope ? ` for ${grant.scope}` : ''}`,
			description: scopeText(grant),
			detail: [grant.reason, grant.approvedAt].filter(Boolean).join(' \u00b7 ') || undefined,
			value: { toolName: grant.toolName, scope: grant.scope, scopeKind: grant.scopeKind },
		})),
		...(list.commandPrefixes ?? []).map((prefix) => ({
			label: `allow ${prefix.toolName}: ${prefix.prefix.join(' ')}`,
			description: 'approved command prefix',
			detail:
				[prefix.reason, prefix.approvedAt].filter(Boolean).join(' \u00b7 ') ||
				'zero can only revoke it with every other grant of the tool',
			// zero has no narrower revoke for a prefix than the whole tool.
			value: { toolName: prefix.toolName },
		})),
	];
}

/** Lists zero's grants, lets the user pick one, confirms what zero will remove, and revokes it. */
export async function manageSandboxGrants(deps: SandboxGrantsDeps): Promise<void> {
	const cwd = deps.workspaceFolder();
	const result = await deps.zeroCli.run(['sandbox', 'grants', 'list', '--json'], { cwd });
	if (!result.found) {
		deps.messages.show('error', result.message);
		return;
	}
	const list = result.exitCode === 0 ? parseGrantList(result.stdout) : undefined;
	if (!list) {
		deps.messages.show(
			'error',
			`zero sandbox grants list --json failed: ${(result.stderr || result.error || result.stdout || `exit ${result.exitCode}`).trim().slice(0, 300)}`,
		);
		return;
	}
	const items = grantPickItems(list);
	if (items.length === 0) {
		deps.messages.show('info', 'zero has no stored sandbox grants.');
		return;
	}
	const grant = await deps.prompts.pick(items, 'Zero: stored sandbox grants (pick one to revoke)');
	if (!grant) {
		return;
	}
	const args = revokeGrantArgs(grant);
	const removed = removedByRevoke(grant, list);
	const lines = [
		...removed.grants.map(
			(entry) =>
				`${entry.decision} ${entry.toolName}${entry.scope ? ` for ${entry.scope}` : ' (every path)'}`,
		),
		...removed.commandPrefixes.map(
			(prefix) => `approved command prefix for ${prefix.toolName}: ${prefix.prefix.join(' ')}`,
		),
	];
	const whole = args.every((arg) => !arg.startsWith('--path='));
	const confirmed = await deps.prompts.confirm(
		`Revoke ${whole ? `every grant zero stores for ${grant.toolName}` : `the grant for ${grant.scope}`}?`,
		`${whole ? `zero can revoke this grant only together with every other grant of ${grant.toolName}.\n\n` : ''}zero will remove:\n${lines.map((line) => `\u2022 ${line}`).join('\n')}\n\nZero will run: ${formatCommandLine('zero', args)}`,
		'Revoke',
	);
	if (!confirmed) {
		return;
	}
	const revoke = await deps.zeroCli.run(args, { cwd });
	if (!revoke.found || revoke.exitCode !== 0) {
		deps.messages.show(
			'error',
			`Revoking failed: ${revoke.found ? (revoke.stderr || revoke.error || `exit ${revoke.exitCode}`).trim() : revoke.message}`,
		);
		return;
	}
	const count = parseRevokeCount(revoke.stdout);
	if (count === undefined) {
		deps.messages.show(
			'error',
			`zero did not say how many grants it revoked: ${revoke.stdout.trim().slice(0, 200) || 'no answer'}`,
		);
	} else if (count === 0) {
		deps.messages.show(
			'warning',
			`zero revoked nothing: no stored grant matched ${grant.toolName}${grant.scope ? ` for ${grant.scope}` : ''} any more.`,
		);
	} else {
		deps.messages.show('info', `zero revoked ${count} grant${count === 1 ? '' : 's'}.`);
	}
}
