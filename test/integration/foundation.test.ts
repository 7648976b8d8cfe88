/**
 * Foundation checks, run inside a real extension host (code-server or @vscode/test-electron):
 * the extension activates, every contributed command is registered, "Zero: Open Chat" resolves
 * the chat view, and settings are read with the right scopes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ZeroTestApi } from '../../src/host/testing/testApi';
import { waitUntil } from '../harness/wait';

const EXTENSION_ID = 'zero-community.zero-vscode';

function withTimeout<T>(promise: Thenable<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	return Promise.race([
		Promise.resolve(promise).finally(() => clearTimeout(timer)),
		new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
		}),
	]);
}

function extension(): vscode.Extension<ZeroTestApi> {
	const ext = vscode.extensions.getExtension<ZeroTestApi>(EXTENSION_ID);
	assert.ok(ext, `extension ${EXTENSION_ID} is not installed in this extension host`);
	return ext;
}

async function activate(): Promise<ZeroTestApi> {
	return withTimeout(extension().activate(), 20_000, `activating ${EXTENSION_ID}`);
}

function workspaceFolder(): vscode.WorkspaceFolder {
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(
		folder,
		'the integration suite needs a workspace folder (test/fixtures/workspace copy)',
	);
	return folder;
}

describe('foundation', () => {
	it('activates and returns the test API', async () => {
		const api = await activate();
		assert.equal(extension().isActive, true);
		assert.ok(api, 'activate() returned nothing: the test API is missing');
		assert.equal(typeof api.whenChatViewResolved, 'function');
		assert.equal(typeof api.settings, 'function');
	});

	it('registers every command contributed in package.json', async () => {
		await activate();
		const contributed: { command: string }[] = extension().packageJSON.contributes?.commands ?? [];
		assert.ok(contributed.length > 0, 'package.json contributes no commands');
		const registered = new Set(await vscode.commands.getCommands(true));
		const missing = contributed.map((c) => c.command).filter((id) => !registered.has(id));
		assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
	});

	it('"Zero: Open Chat" resolves the chat view', async () => {
		const api = await activate();
		await withTimeout(vscode.commands.executeCommand('zero.openChat'), 20_000, 'zero.openChat');
		await withTimeout(
			api.whenChatViewResolved(),
			20_000,
			'whenChatViewResolved() after zero.openChat',
		);
	});

	describe('settings', () => {
		const config = () => vscode.workspace.getConfiguration('zero');
		let settingsFile: string;
		let savedSettingsFile: string | undefined;

		before(() => {
			settingsFile = path.join(workspaceFolder().uri.fsPath, '.vscode', 'settings.json');
			savedSettingsFile = fs.existsSync(settingsFile)
				? fs.readFileSync(settingsFile, 'utf8')
				: undefined;
		});

		after(async () => {
			await config().update('model', undefined, vscode.ConfigurationTarget.Workspace);
			if (savedSettingsFile === undefined) {
				fs.rmSync(settingsFile, { force: true });
			} else {
				fs.writeFileSync(settingsFile, savedSettingsFile);
			}
		});

		it('reads zero.model from the workspace configuration', async () => {
			const api = await activate();
			const model = `integration-model-${Date.now()}`;
			await config().update('model', model, vscode.ConfigurationTarget.Workspace);
			await waitUntil(
				() => api.settings().model === model,
				10_000,
				`settings().model to become "${model}"`,
			);
			await config().update('model', undefined, vscode.ConfigurationTarget.Workspace);
			await waitUntil(
				() => api.settings().model !== model,
				10_000,
				'settings().model to drop the workspace value',
			);
		});

		it('ignores zero.path set at workspace level (machine-scoped)', async () => {
			const api = await activate();
			const userPath = api.settings().path;
			const bogusPath = '/nonexistent/workspace-chosen/zero';
			const marker = `workspace-file-model-${Date.now()}`;

			// VS Code refuses to write a machine-scoped setting into workspace settings through the API.
			await assert.rejects(
				Promise.resolve(config().update('path', bogusPath, vscode.ConfigurationTarget.Workspace)),
				'writing zero.path into workspace settings should be refused (the setting is machine-scoped)',
			);

			// A cloned repository can still carry it in .vscode/settings.json: write that file directly,
			// with a model next to it that proves the file was read.
			fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
			fs.writeFileSync(
				settingsFile,
				JSON.stringify({ 'zero.path': bogusPath, 'zero.model': marker }, null, 2),
			);
			await waitUntil(
				() => api.settings().model === marker,
				15_000,
				'the workspace settings file to be read',
			);
			assert.notEqual(
				api.settings().path,
				bogusPath,
				'zero.path from workspace settings must be ignored',
			);
			assert.equal(api.settings().path, userPath, 'zero.path should still be the user value');
		});
	});
});
