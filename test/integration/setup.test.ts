/**
 * First run and the not-ready states, inside a real extension host: each situation gives the
 * right readiness state and one primary action. The real zero is used where a fake would prove
 * nothing (no provider, ready with the scripted model server); those tests say why when the
 * binary is not there.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startModelServer, type ModelServer } from '../harness/modelServer';
import { createZeroHome, type ZeroHome } from '../harness/zeroEnv';
import * as support from './support';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('zero');

async function checkedState(
	env?: Record<string, string>,
	binary?: string,
): Promise<ReturnType<Awaited<ReturnType<typeof support.activate>>['readiness']>> {
	const api = await support.activate();
	if (binary !== undefined) {
		await config().update('path', binary, vscode.ConfigurationTarget.Global);
	}
	if (env !== undefined) {
		await config().update('env', env, vscode.ConfigurationTarget.Global);
	}
	await support.waitUntil(
		() =>
			(binary === undefined || api.settings().path === binary) &&
			(env === undefined || JSON.stringify(api.settings().env) === JSON.stringify(env)),
		5000,
		'the settings',
	);
	await vscode.commands.executeCommand('zero.checkSetup');
	await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	return api.whenReadinessSettled(30_000);
}

/** Keeps provider variables of the machine running the tests away from a hermetic zero. */
function hermetic(home: ZeroHome): Record<string, string> {
	const blank = [
		'ANTHROPIC_API_KEY',
		'ANTHROPIC_BASE_URL',
		'GEMINI_API_KEY',
		'GOOGLE_API_KEY',
		'ZERO_PROVIDER_COMMAND',
		'OPENAI_API_KEY',
		'OPENAI_BASE_URL',
		'OPENAI_MODEL',
		'ZERO_PROVIDER',
	];
	return { ...Object.fromEntries(blank.map((key) => [key, ''])), ...home.env };
}

const realZero = path.join(support.extensionPath(), '.zero-bin', 'zero');
const haveRealZero = fs.existsSync(realZero);

describe('setup and readiness', function () {
	this.timeout(90_000);
	after(support.resetSettings);

	it('the walkthrough: never opened by itself when walkthroughs are off; "Zero: Open Walkthrough" opens it', async () => {
		await support.activate();
		// The API names a getting-started tab "Welcome" even once it shows our walkthrough (the
		// workbench's own tab says "Walkthrough: Zero"; the e2e tests check what is on screen).
		const gettingStartedTabs = (): vscode.Tab[] =>
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.filter((tab) => tab.input === undefined && /^(Welcome|Walkthrough: )/.test(tab.label));
		// This host runs with "workbench.welcomePage.walkthroughs.openOnInstall": false.
		assert.equal(
			vscode.workspace.getConfiguration('workbench.welcomePage').get('walkthroughs.openOnInstall'),
			false,
		);
		assert.deepEqual(
			gettingStartedTabs().map((tab) => tab.label),
			[],
			'the first activation respected the setting',
		);
		await vscode.commands.executeCommand('zero.openWalkthrough');
		await support.waitUntil(
			() => gettingStartedTabs().length === 1,
			20_000,
			'a getting-started tab',
		);
		await vscode.window.tabGroups.close(gettingStartedTabs());
	});

	it('a missing binary: "not found", with install commands and Locate zero...', async () => {
		const state = await checkedState({}, path.join(support.workspaceRoot(), 'nowhere', 'zero'));
		assert.equal(state.state, 'not_found');
		assert.equal(state.primaryAction?.command, 'zero.locateBinary');
		assert.match(
			state.detail ?? '',
			/"zero.path" is set to .*nowhere\/zero, but no executable file is there/,
		);
		assert.deepEqual(
			state.commands?.map((command) => command.label),
			['npm', 'Go', 'Install script'],
		);
	});

	it('a binary that is not zero: "not zero", with Locate zero...', async () => {
		const state = await checkedState(
			{},
			path.join(support.extensionPath(), 'test', 'fixtures', 'not-zero', 'zero'),
		);
		assert.equal(state.state, 'not_zero');
		assert.equal(state.primaryAction?.command, 'zero.locateBinary');
		assert.match(state.detail ?? '', /Usage: frobnicate/);
	});

	it('an old zero: "too old", with upgrade commands', async () => {
		const fake = await support.useFakeZero({ FAKE_ZERO_VERSION: '0.7.2' });
		const state = await checkedState(undefined, fake.binary);
		assert.equal(state.state, 'too_old');
		assert.match(state.title, /zero 0\.7\.2 is too old/);
		assert.equal(state.commands?.[0].command, 'zero upgrade');
	});

	it('a zero without a provider (FAKE): "connect a provider", running zero setup in a terminal', async () => {
		const fake = await support.useFakeZero({ FAKE_ZERO_NO_PROVIDER: '1' });
		const state = await checkedState(undefined, fake.binary);
		assert.equal(state.state, 'no_provider');
		assert.equal(state.primaryAction?.command, 'zero.connectProvider');
		assert.match(state.detail ?? '', /never asks for or stores API keys/);
	});

	it('a first run that fails with provider_error switches to the provider state with zero\u2019s message', async () => {
		const api = await support.activate();
		const fake = await support.useFakeZero();
		assert.equal((await checkedState(undefined, fake.binary)).state, 'ready');
		await support.newChat(api);
		await support.sendAndWait(api, 'hello [scenario:provider-error]');
		await support.waitUntil(
			() => api.readiness().state === 'no_provider',
			5000,
			'the provider state',
		);
		assert.match(
			api.readiness().detail ?? '',
			/zero said: No provider configured\. Run `zero setup`/,
		);
	});

	it('a ready FAKE zero: "ready", with the provider and model', async () => {
		const fake = await support.useFakeZero();
		const state = await checkedState(undefined, fake.binary);
		assert.equal(state.state, 'ready');
		assert.equal(state.version, '0.8.0');
		assert.equal(
			state.detail,
			'fake \u00b7 fake-model \u00b7 shell commands need approval (no native sandbox)',
		);
	});

	// The FAKE zero replays what the REAL zero v0.8.0 answered in these setup states
	// (test/fixtures/recorded/readiness/<home>/, FAKE_ZERO_RECORDED_HOME).
	it('a new user whose provider has no API key (recorded): "connect a provider", never "Ready"', async () => {
		const fake = await support.useFakeZero({ FAKE_ZERO_RECORDED_HOME: 'no-api-key-openai' });
		const state = await checkedState(undefined, fake.binary);
		assert.equal(state.state, 'no_provider', JSON.stringify(state));
		assert.equal(state.title, 'Connect a model provider');
		assert.match(state.detail ?? '', /provider openai requires API key; set OPENAI_API_KEY/);
		assert.equal(state.primaryAction?.command, 'zero.connectProvider');
	});

	it('a custom endpoint that needs no key (recorded): "ready" after zero checked it online', async () => {
		const fake = await support.useFakeZero({ FAKE_ZERO_RECORDED_HOME: 'no-api-key-compatible' });
		const state = await checkedState(undefined, fake.binary);
		assert.equal(state.state, 'ready', JSON.stringify(state));
		assert.match(state.detail ?? '', /no API key needed/);
	});

	it('a user config zero cannot read (recorded): "zero cannot start a run here", not "Ready"', async () => {
		const fake = await support.useFakeZero({ FAKE_ZERO_RECORDED_HOME: 'broken-config' });
		const state = await checkedState(undefined, fake.binary);
		assert.equal(state.state, 'zero_error', JSON.stringify(state));
		assert.match(state.detail ?? '', /invalid config JSON/);
	});

	(haveRealZero ? it : it.skip)(
		'the REAL zero with an empty configuration: "connect a provider"',
		async () => {
			const home = await createZeroHome();
			try {
				const state = await checkedState(hermetic(home), realZero);
				assert.equal(state.state, 'no_provider', JSON.stringify(state));
				assert.equal(state.primaryAction?.command, 'zero.connectProvider');
			} finally {
				await home.cleanup();
			}
		},
	);

	(haveRealZero ? it : it.skip)(
		'the REAL zero with a provider but no API key: "connect a provider", never "Ready"',
		async () => {
			const home = await createZeroHome({
				config: {
					activeProvider: 'openai',
					providers: [{ name: 'openai', provider_kind: 'openai', model: 'gpt-4.1' }],
				},
			});
			try {
				const state = await checkedState(hermetic(home), realZero);
				assert.equal(state.state, 'no_provider', JSON.stringify(state));
				assert.match(state.detail ?? '', /requires API key/);
			} finally {
				await home.cleanup();
			}
		},
	);

	(haveRealZero ? it : it.skip)(
		'the REAL zero with the scripted model server: "ready", and a first answer',
		async () => {
			let server: ModelServer | undefined;
			let home: ZeroHome | undefined;
			try {
				server = await startModelServer();
				home = await createZeroHome({ baseUrl: server.baseUrl });
				const state = await checkedState(hermetic(home), realZero);
				assert.equal(state.state, 'ready', JSON.stringify(state));
				assert.equal(
					state.detail,
					'openai \u00b7 fake-model \u00b7 shell commands need approval (no native sandbox)',
				);
				const api = await support.activate();
				await support.newChat(api);
				server.script([
					{ text: ['Hello ', 'from the scripted model.'], usage: { prompt: 10, completion: 5 } },
				]);
				const turn = await support.sendAndWait(api, 'Say hello', 60_000);
				assert.equal(
					turn.run.end?.kind === 'run_end' && turn.run.end.status,
					'success',
					JSON.stringify(turn.run.end),
				);
				assert.equal(turn.run.finalText, 'Hello from the scripted model.');
			} finally {
				await server?.close();
				await home?.cleanup();
			}
		},
	);

	if (!haveRealZero) {
		it('says why the real-zero readiness tests were skipped', () => {
			// Not a pass in disguise: this records the reason next to the two skipped tests.
			console.log(
				`real zero not found at ${realZero}; the two REAL zero readiness tests are skipped (the Go module proxy refuses github.com/Gitlawb/zero on these machines; see .ci/run).`,
			);
		});
	}
});

describe('connect a model provider', function () {
	this.timeout(60_000);
	after(support.resetSettings);

	it('runs zero setup as the terminal\u2019s own process, never as text typed into a shell', async () => {
		await support.activate();
		const fake = await support.useFakeZero();
		const opened = new Promise<vscode.Terminal>((resolve) => {
			const listener = vscode.window.onDidOpenTerminal((terminal) => {
				if (terminal.name === 'zero setup') {
					listener.dispose();
					resolve(terminal);
				}
			});
		});
		await vscode.commands.executeCommand('zero.connectProvider');
		const terminal = await opened;
		try {
			const options = terminal.creationOptions as vscode.TerminalOptions;
			// A shell would expand $ and backticks in a quoted path, and PowerShell rejects "path" setup.
			assert.equal(options.shellPath, fake.binary);
			assert.deepEqual(options.shellArgs, ['setup']);
			await support.waitUntil(
				() => fake.records().some((record) => record.argv.join(' ') === 'setup'),
				20_000,
				'zero setup to run',
			);
		} finally {
			terminal.dispose();
		}
	});
});

describe('untrusted workspace @untrusted', function () {
	this.timeout(60_000);

	it('nothing spawns zero, and the chat says why with Manage Workspace Trust', async () => {
		const api = await support.activate();
		assert.equal(vscode.workspace.isTrusted, false, 'this pass must run in an untrusted workspace');
		const fake = await support.useFakeZero();
		const state = await api.whenReadinessSettled(20_000);
		assert.equal(state.state, 'untrusted');
		assert.equal(state.primaryAction?.command, 'workbench.trust.manage');
		await support.newChat(api);
		const turn = await support.sendAndWait(api, 'hello [scenario:answer]');
		assert.equal(turn.run.end?.kind, 'spawn_failed');
		assert.match(turn.run.end?.kind === 'spawn_failed' ? turn.run.end.message : '', /not trusted/);
		await vscode.commands.executeCommand('zero.inspectWorkspace', {
			label: 'Find bugs',
			prompt: 'x [scenario:inspection]',
		});
		// zero's own subcommands and its setup in a terminal are refused too.
		await vscode.commands.executeCommand('zero.manageGrants');
		await vscode.commands.executeCommand('zero.connectProvider');
		assert.ok(
			!vscode.window.terminals.some((terminal) => terminal.name === 'zero setup'),
			'no "zero setup" terminal in an untrusted workspace',
		);
		assert.deepEqual(
			fake.records(),
			[],
			'zero (even --version) must never run in an untrusted workspace',
		);
		await support.resetSettings();
	});
});
