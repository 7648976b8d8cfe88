import type { PermissionActionSpec } from '../../shared/permissionTypes';
import type { RunPermissionMode } from '../../zero/protocol/permissionModes';
import { buildExecArgs, type ExecOptions } from '../../zero/protocol/execArgs';
import { isGrantableToolName, revokeGrantArgs } from '../../zero/protocol/grants';

/**
 * The command lines a follow-up runs: an optional `zero sandbox grants …` command (store or revoke
 * a grant), then the resumed run.
 */
export interface ActionCommands {
	/** `zero sandbox grants allow|revoke …`, run before the re-run; the re-run waits for it. */
	grant?: string[];
	exec: string[];
	permissionMode: RunPermissionMode;
	addDirs: string[];
}

export interface RerunBase {
	cwd: string;
	sessionId: string;
	/** The mode and extra write roots of the refused run. */
	permissionMode: RunPermissionMode;
	addDirs: readonly string[];
	model?: string;
	maxTurns?: number;
	/** The chat's `--trace` file (see `host/platform/traceFiles.ts`). */
	tracePath?: string;
	extraArgs?: readonly string[];
}

/**
 * `zero sandbox grants allow <tool>`. zero v0.8.0 has no `--` (it rejects it as an unknown flag),
 * so a tool name it would read as a flag or as `help` is refused here.
 */
export function grantArgs(tool: string, path?: string): string[] {
	if (!isGrantableToolName(tool)) {
		throw new Error(`zero cannot store a grant for the tool name ${JSON.stringify(tool)}.`);
	}
	return [
		'sandbox',
		'grants',
		'allow',
		tool,
		...(path ? [`--path=${path}`] : []),
		'--reason=approved in Zero for VS Code',
	];
}

/** Maps a follow-up to exact argv: every re-run resumes the same session (`--resume`). */
export function actionCommands(spec: PermissionActionSpec, base: RerunBase): ActionCommands {
	let permissionMode = base.permissionMode;
	let addDirs = [...base.addDirs];
	let grant: string[] | undefined;
	switch (spec.id) {
		case 'rerun-mode':
			permissionMode = spec.mode;
			break;
		case 'rerun-add-dir':
			addDirs = addDirs.includes(spec.dir) ? addDirs : [...addDirs, spec.dir];
			break;
		case 'rerun-unsafe':
			permissionMode = 'unsafe';
			break;
		case 'grant-and-rerun':
			permissionMode = spec.mode ?? permissionMode;
			grant = grantArgs(spec.tool, spec.path);
			break;
		case 'revoke-and-rerun':
			permissionMode = spec.mode ?? permissionMode;
			grant = revokeGrantArgs(spec.grant);
			break;
		case 'continue':
			break;
	}
	const options: ExecOptions = {
		cwd: base.cwd,
		permissionMode,
		session: { kind: 'resume', id: base.sessionId },
		model: base.model,
		maxTurns: base.maxTurns,
		addDirs,
		tracePath: base.tracePath,
		extraArgs: base.extraArgs,
	};
	return { grant, exec: buildExecArgs(options), permissionMode, addDirs };
}
