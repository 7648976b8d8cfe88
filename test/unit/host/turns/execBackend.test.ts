/**
 * The `zero exec` turn on its own: what it hands the launcher, stderr notices on the turn, the
 * trace count, the changes at the end, and a failure to start that still ends the turn.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LaunchRequest, LaunchedRun } from '../../../../src/host/platform/runLauncher';
import { ExecBackend, type ExecBackendDeps } from '../../../../src/host/turns/execBackend';
import type { TurnRequest } from '../../../../src/host/turns/turnBackend';
import { applyAction, createTranscript } from '../../../../src/shared/transcript';
import type { TranscriptAction } from '../../../../src/shared/transcriptSchema';
import type { ProcessOutcome } from '../../../../src/zero/protocol/processOutcome';
import type { ZeroRun } from '../../../../src/zero/process/zeroRun';
import { exited } from '../../helpers';
import { changeSummary } from '../../changeFixtures';

const silent = { error() {} };

const request: TurnRequest = {
	kind: 'chat',
	message: 'hello',
	displayText: 'hello',
	context: [],
	images: [],
	permissionMode: 'plan',
	addDirs: ['/extra'],
};

function setup(
	launch: (request: LaunchRequest) => LaunchedRun,
	extra: Partial<ExecBackendDeps> = {},
) {
	const transcript = createTranscript({ id: 'c1', title: 't', createdAt: 0 });
	const actions: TranscriptAction[] = [];
	const host = {
		transcript,
		apply: (action: TranscriptAction) => {
			actions.push(action);
			applyAction(transcript, action);
		},
		now: () => 5,
	};
	const backend = new ExecBackend(host, {
		launcher: { launch },
		log: silent,
		plan: (_turnId, turnRequest) => ({
			args: ['exec', `--permission-mode=${turnRequest.permissionMode}`],
			env: { A: '1' },
			label: 'test',
			maxTurns: 9,
		}),
		...extra,
	});
	host.apply({ type: 'turn/start', turnId: 't1', prompt: { text: 'hello', context: [] } });
	return { backend, transcript, actions };
}

const started = { turnId: 't1', request, binary: '/bin/zero', cwd: '/ws', model: undefined };

describe('ExecBackend', () => {
	it('launches the planned command line, puts zero\u2019s stderr notices on the turn, and ends it', async () => {
		const launches: LaunchRequest[] = [];
		const { backend, transcript, actions } = setup(
			(launched) => {
				launches.push(launched);
				launched.onStderrLine?.(
					'zero: ignoring project hooks/plugins/MCP servers in an untrusted workspace.',
				);
				launched.onStderrLine?.('something else');
				return {
					run: {} as ZeroRun,
					commandLine: 'zero exec',
					done: Promise.resolve(exited(0) as ProcessOutcome),
				};
			},
			{ takeModelRequests: async () => 3 },
		);
		const command = backend.command('t1', request, '/bin/zero');
		assert.equal(command.display, '/bin/zero exec --permission-mode=plan');
		assert.deepEqual(command.addDirs, ['/extra']);
		assert.equal(command.maxTurns, 9);
		const result = await backend.runExec(started);
		assert.equal(result.commandLine, 'zero exec');
		assert.deepEqual(launches[0].args, ['exec', '--permission-mode=plan']);
		assert.equal(launches[0].cwd, '/ws');
		assert.deepEqual(JSON.parse(launches[0].input).content, 'hello');
		assert.deepEqual(
			actions.filter((action) => action.type === 'run/notice').map((action) => action.code),
			['stderr:project_config_ignored'],
		);
		assert.ok(actions.some((action) => action.type === 'run/trace' && action.modelRequests === 3));
		assert.equal(transcript.turns[0].run.phase, 'ended');
		assert.equal(actions.at(-1)?.type, 'run/exit');
	});

	it('a launch that throws ends the turn "zero could not be started" and says why', async () => {
		const { backend, transcript } = setup(() => {
			throw new Error('EACCES');
		});
		const result = await backend.runExec(started);
		assert.equal(result.commandLine, undefined);
		const end = transcript.turns[0].run.end;
		assert.equal(end?.kind, 'spawn_failed');
		assert.match(
			end?.kind === 'spawn_failed' ? end.message : '',
			/zero could not be started: EACCES/,
		);
	});

	it('applies the turn\u2019s changes once the tracker has them', async () => {
		const summary = changeSummary([]);
		const { backend, actions } = setup(
			() => ({
				run: {} as ZeroRun,
				commandLine: 'zero',
				done: Promise.resolve(exited(0) as ProcessOutcome),
			}),
			{
				beginTracking: async () => ({
					onLine: () => undefined,
					finish: async () => summary,
				}),
			},
		);
		await backend.run(started);
		const last = actions.at(-1);
		assert.deepEqual(last?.type === 'turn/changes' && last.changes, summary);
	});
});
