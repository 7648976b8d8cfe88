import type { PermissionActionSpec } from './permissions';
import type { RunPermissionMode } from '../zero/permissionModes';
import { buildExecArgs, type ExecOptions } from '../zero/execArgs';

/** The command lines a permission follow-up runs: an optional grant, then the resumed run. */
export interface ActionCommands {
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
	extraArgs?: readonly string[];
}

export function grantArgs(
	spec: Extract<PermissionActionSpec, { id: 'grant-and-rerun' }>,
): string[] {
	return [
		'sandbox',
		'grants',
		'allow',
		spec.tool,
		...(spec.path ? [`--path=${spec.path}`] : []),
		'--reason=approved in Zero for VS Code',
	];
}

/** Maps a follow-up to exact argv: every re-run resumes the same session (`--resume`). */
export function actionCommands(spec: PermissionActionSpec, base: RerunBase): ActionCommands {
	let permissionMode = base.permissionMode;
	let addDirs = [...base.addDirs];
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
			break;
	}
	const options: ExecOptions = {
		cwd: base.cwd,
		permissionMode,
		session: { kind: 'resume', id: base.sessionId },
		model: base.model,
		maxTurns: base.maxTurns,
		addDirs,
		extraArgs: base.extraArgs,
	};
	return {
		grant: spec.id === 'grant-and-rerun' ? grantArgs(spec) : undefined,
		exec: buildExecArgs(options),
		permissionMode,
		addDirs,
	};
}
