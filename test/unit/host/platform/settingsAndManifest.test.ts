import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { COMMAND_IDS } from '../../../../src/host/commands/commandIds';
import {
	readSettings,
	SETTING_KEYS,
	type SettingsSource,
} from '../../../../src/host/platform/settings';
import { CHAT_PERMISSION_MODES } from '../../../../src/zero/protocol/permissionModes';
import { WEBVIEW_RUNNABLE_COMMANDS } from '../../../../src/shared/protocol';
import { REPO } from '../../helpers';

const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));

function source(
	values: Record<string, { globalValue?: unknown; workspaceValue?: unknown }>,
): SettingsSource {
	return {
		inspect: <T>(key: string) => values[key] as { globalValue?: T; workspaceValue?: T } | undefined,
	};
}

describe('settings', () => {
	it('uses defaults when nothing is set', () => {
		const { settings, problems } = readSettings(source({}));
		assert.deepEqual(settings, {
			path: '',
			model: '',
			permissionMode: 'member',
			maxTurns: undefined,
			maxConcurrentRuns: 4,
			extraArgs: [],
			env: {},
			sendWithEnter: true,
			inspectionPresets: [],
			shellBaselineEnabled: true,
			shellBaselineMaxStoreMegabytes: 2048,
		});
		assert.deepEqual(problems, []);
	});

	it('reads machine-scoped settings from user settings only, never from the workspace', () => {
		const { settings } = readSettings(
			source({
				path: { workspaceValue: '/evil/zero' },
				extraArgs: { workspaceValue: ['--skip-permissions-unsafe'] },
				env: { workspaceValue: { OPENAI_BASE_URL: 'http://evil' } },
			}),
		);
		assert.equal(settings.path, '');
		assert.deepEqual(settings.extraArgs, []);
		assert.deepEqual(settings.env, {});
		assert.equal(
			readSettings(source({ path: { globalValue: '/usr/local/bin/zero' } })).settings.path,
			'/usr/local/bin/zero',
		);
	});

	it('lets the workspace choose model and mode', () => {
		const { settings } = readSettings(
			source({
				model: { globalValue: 'a', workspaceValue: 'b' },
				permissionMode: { workspaceValue: 'plan' },
			}),
		);
		assert.equal(settings.model, 'b');
		assert.equal(settings.permissionMode, 'plan');
	});

	it('reports an invalid value once, naming the setting, and falls back to the default', () => {
		const { settings, problems } = readSettings(
			source({
				permissionMode: { workspaceValue: 'unsafe' },
				maxTurns: { globalValue: 9000 },
				env: { globalValue: { A: 1 } },
				'inspection.presets': { globalValue: [{ label: 'x' }] },
			}),
		);
		assert.equal(settings.permissionMode, 'member');
		assert.equal(settings.maxTurns, undefined);
		assert.deepEqual(settings.env, {});
		assert.deepEqual(
			problems.map((problem) => problem.setting),
			['zero.permissionMode', 'zero.maxTurns', 'zero.env', 'zero.inspection.presets'],
		);
		assert.match(
			problems[0].message,
			/"zero.permissionMode" must be one of plan, auto, member, ask; using the default instead./,
		);
	});
});

describe('manifest', () => {
	it('contributes exactly the commands the extension registers', () => {
		assert.deepEqual(
			manifest.contributes.commands.map((command: { command: string }) => command.command).sort(),
			[...COMMAND_IDS].sort(),
		);
	});

	it('gives every command a title and the Zero category', () => {
		for (const command of manifest.contributes.commands) {
			assert.ok(command.title && command.category === 'Zero', command.command);
		}
	});

	it('declares a setting for every key the reader knows, with safe scopes', () => {
		const properties = manifest.contributes.configuration.properties;
		assert.deepEqual(SETTING_KEYS, [
			'path',
			'model',
			'permissionMode',
			'maxTurns',
			'maxConcurrentRuns',
			'extraArgs',
			'env',
			'sendWithEnter',
			'shellBaseline.enabled',
			'shellBaseline.maxStoreMegabytes',
			'inspection.presets',
		]);
		for (const key of SETTING_KEYS) {
			assert.ok(properties[`zero.${key}`], key);
		}
		for (const key of ['zero.path', 'zero.extraArgs', 'zero.env']) {
			assert.equal(properties[key].scope, 'machine', key);
		}
		assert.deepEqual(properties['zero.permissionMode'].enum, [...CHAT_PERMISSION_MODES]);
		assert.equal(properties['zero.permissionMode'].enum.includes('unsafe'), false);
	});

	it('activates lazily, runs next to the workspace, and targets VS Code 1.95', () => {
		assert.equal(manifest.activationEvents.includes('*'), false);
		assert.deepEqual(manifest.extensionKind, ['workspace']);
		assert.equal(manifest.engines.vscode, '^1.95.0');
	});

	it('only lets the webview run commands that exist', () => {
		const known = new Set([...COMMAND_IDS, 'workbench.trust.manage']);
		for (const command of WEBVIEW_RUNNABLE_COMMANDS) {
			assert.ok(known.has(command), command);
		}
	});

	it('has walkthrough media for every step', () => {
		for (const step of manifest.contributes.walkthroughs[0].steps) {
			assert.ok(readFileSync(path.join(REPO, step.media.markdown), 'utf8').length > 100, step.id);
		}
	});
});
