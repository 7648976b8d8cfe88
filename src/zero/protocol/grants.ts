/**
 * zero's stored sandbox grants as `zero sandbox grants list --json` and `revoke --json` report them
 * (`internal/cli/sandbox.go`), and what a revoke really removes. Recorded in
 * `test/fixtures/recorded/permissions-cli/p13-*`.
 */
import { z } from 'zod';
import { GrantSchema } from './events';

/** zero's own rule for grant tool names (`internal/sandbox/grants.go`, toolGrantNamePattern). */
const GRANT_TOOL_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * Whether `zero sandbox grants <verb> <name>` would read `name` as the tool: zero's pattern, and
 * neither a flag nor the word `help` (which prints help and exits 0).
 */
export function isGrantableToolName(name: string): boolean {
	return GRANT_TOOL_NAME.test(name) && !name.startsWith('-') && name !== 'help';
}

/** A stored grant as zero lists and reports it. */
export interface GrantRef {
	toolName: string;
	scope?: string;
	/** `file`, `dir`, `host`, or empty/absent for a tool-wide grant. */
	scopeKind?: string;
}

/**
 * Whether revoking this grant also removes every other grant of its tool. zero can revoke a single
 * grant only by a file or directory scope (`revoke <tool> --path=<scope>`, matched against the
 * stored absolute scope); a tool-wide or host grant goes only with `revoke <tool>`, which removes
 * all of the tool's grants and command prefixes (`internal/sandbox/grants.go` Revoke/RevokePath).
 */
export function revokeRemovesWholeTool(grant: GrantRef): boolean {
	return !((grant.scopeKind === 'file' || grant.scopeKind === 'dir') && Boolean(grant.scope));
}

/** `zero sandbox grants revoke` for one grant, by the grant's own scope; `--json` reports the count. */
export function revokeGrantArgs(grant: GrantRef): string[] {
	return [
		'sandbox',
		'grants',
		'revoke',
		grant.toolName,
		...(revokeRemovesWholeTool(grant) ? [] : [`--path=${grant.scope}`]),
		'--json',
	];
}

/** A command-prefix approval (`always_allow_prefix`); only interactive approvals create one. */
export const CommandPrefixGrantSchema = z.object({
	toolName: z.string(),
	prefix: z.array(z.string()),
	approvedAt: z.string().optional(),
	reason: z.string().optional(),
	session: z.boolean().optional(),
});

export const GrantListSchema = z.object({
	grants: z.array(GrantSchema),
	/** Omitted when there are none. */
	commandPrefixes: z.array(CommandPrefixGrantSchema).optional(),
});

export type GrantList = z.infer<typeof GrantListSchema>;
export type CommandPrefixGrant = z.infer<typeof CommandPrefixGrantSchema>;

const RevokeResultSchema = z.object({ revoked: z.number().int().nonnegative() });

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** `zero sandbox grants list --json`; undefined when the answer is not that shape. */
export function parseGrantList(stdout: string): GrantList | undefined {
	const parsed = GrantListSchema.safeParse(parseJson(stdout));
	return parsed.success ? parsed.data : undefined;
}

/** The count `zero sandbox grants revoke … --json` reports; 0 means nothing matched. */
export function parseRevokeCount(stdout: string): number | undefined {
	const parsed = RevokeResultSchema.safeParse(parseJson(stdout));
	return parsed.success ? parsed.data.revoked : undefined;
}

/**
 * Everything `revokeGrantArgs(grant)` removes: the grant alone for a file or directory scope;
 * otherwise every grant of the tool and its command prefixes (zero has no narrower revoke).
 */
export function removedByRevoke(
	grant: GrantRef,
	list: GrantList,
): { grants: GrantList['grants']; commandPrefixes: CommandPrefixGrant[] } {
	if (!revokeRemovesWholeTool(grant)) {
		return {
			grants: list.grants.filter(
				(candidate) => candidate.toolName === grant.toolName && candidate.scope === grant.scope,
			),
			commandPrefixes: [],
		};
	}
	return {
		grants: list.grants.filter((candidate) => candidate.toolName === grant.toolName),
		commandPrefixes: (list.commandPrefixes ?? []).filter(
			(candidate) => candidate.toolName === grant.toolName,
		),
	};
}
