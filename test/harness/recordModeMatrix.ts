/**
 * What each permission mode lets `zero exec` do, recorded from the real binary (issue #36): the
 * Mode menu's descriptions are generated from a table in `src/shared/permissionModes.ts` that a
 * unit test checks against these runs (`test/unit/shared/permissionModeFacts.test.ts`).
 *
 * One run per mode the extension offers (plan, auto, member, ask), unsafe as the confirmed re-run
 * passes it (`--skip-permissions-unsafe`), and the spec draft (`--use-spec`, zero's `spec-draft`
 * mode). In each run the model makes the same three calls, one per model turn: a new file inside
 * the workspace (`write_file`), a shell command (`exec_command`) and a fetch (`web_fetch`, an
 * offline `.invalid` host: "allowed" shows as a network error, not a rule). The meta file keeps
 * the tools each mode offers the model. Like the rest of the matrix: each run in its own hermetic
 * home, on a machine without a native sandbox. Run by `recordRealZero.ts --only modes`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

import type { ScriptedResponse } from './modelServer';
import { createZeroHome } from './zeroEnv';
import { baseFlags, usage, userMessage, type Recorder, type Scenario } from './zeroRecorder';

/** The modes recorded, with the flags the extension passes for each. */
export const RECORDED_MODES = [
	{ mode: 'plan', flags: ['--permission-mode=plan'] },
	{ mode: 'auto', flags: ['--permission-mode=auto'] },
	{ mode: 'member', flags: ['--permission-mode=member'] },
	{ mode: 'ask', flags: ['--permission-mode=ask'] },
	{ mode: 'unsafe', flags: ['--skip-permissions-unsafe'] },
	// zero forces its spec-draft mode and refuses --no-completion-gate with --use-spec.
	{ mode: 'spec-draft', flags: ['--use-spec', '--init-session-id=mode-matrix-spec-draft'] },
] as const;

export const modeRunName = (mode: string): string => `p14-mode-${mode}`;

/** The written file, the command's output marker and the fetched URL, per mode. */
export const modeCalls = (mode: string) => ({
	file: `created-in-${mode}.txt`,
	command: `echo ran-in-${mode}`,
	url: `https://mode-${mode}.example.invalid/`,
});

function script(mode: string): ScriptedResponse[] {
	const calls = modeCalls(mode);
	return [
		{
			toolCalls: [
				{ id: 'call_write', name: 'write_file', args: { path: calls.file, content: 'x\n' } },
			],
			usage: usage(1500, 20),
		},
		{
			toolCalls: [{ id: 'call_shell', name: 'exec_command', args: { cmd: calls.command } }],
			usage: usage(1600, 20),
		},
		{
			toolCalls: [{ id: 'call_fetch', name: 'web_fetch', args: { url: calls.url } }],
			usage: usage(1700, 20),
		},
		{ text: [`Done in ${mode}.`], usage: usage(1800, 10) },
	];
}

export const modeScenarios: Scenario[] = [
	{
		id: 'p14-modes',
		description:
			'The same write, shell command and fetch in every mode: what zero offers the model and what it allows, for the Mode menu.',
		run: async (r: Recorder) => {
			for (const { mode, flags } of RECORDED_MODES) {
				const home = await createZeroHome({ baseUrl: r.server.baseUrl });
				r.otherRoots.push([home.root, '$ROOT_P14']);
				try {
					const ws = path.join(home.root, 'ws', 'project');
					await mkdir(ws, { recursive: true });
					await writeFile(path.join(ws, 'README.md'), '# project\n');
					const head = baseFlags(ws).filter(
						(flag) => !(mode === 'spec-draft' && flag === '--no-completion-gate'),
					);
					await r.record(
						'p14-modes',
						modeRunName(mode),
						`${mode}: write a new file inside the workspace, run a shell command, fetch a URL`,
						{
							args: [...head, ...flags],
							env: home.env,
							cwd: ws,
							stdin: userMessage('Create the file, run the command and fetch the page.'),
						},
						script(mode),
						{ mode },
					);
				} finally {
					r.otherRoots.pop();
					await home.cleanup();
				}
			}
		},
	},
];
