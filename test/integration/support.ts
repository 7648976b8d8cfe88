/** Shared helpers for integration tests that drive the extension against the FAKE zero. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ZeroTestApi } from '../../src/host/testing/testApi';
import type { Transcript, Turn } from '../../src/shared/transcriptSchema';
import { waitUntil } from '../harness/wait';

export { waitUntil };

export const EXTENSION_ID = 'zero-community.zero-vscode';

export function extensionPath(): string {
	const extension = vscode.extensions.getExtension(EXTENSION_ID);
	assert.ok(extension, `${EXTENSION_ID} is not loaded`);
	return extension.extensionPath;
}

export async function activate(): Promise<ZeroTestApi> {
	const extension = vscode.extensions.getExtension<ZeroTestApi>(EXTENSION_ID);
	assert.ok(extension);
	const api = await extension.activate();
	await api.chatRestored();
	return api;
}

export function workspaceRoot(): string {
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(folder, 'these tests need a workspace folder');
	return folder.uri.fsPath;
}

/**
 * Writes `bytes` back to a workspace file a test changed, and waits until VS Code's copy of it (a
 * document stays open in memory after its editor closed) shows them: the file watcher is
 * asynchronous, and a later test that opens the file would otherwise read the old text.
 */
export async function restoreFile(file: string, bytes: Buffer): Promise<void> {
	fs.writeFileSync(file, bytes);
	await documentMatchesDisk(file);
}

/** Waits until an open, unmodified document of `file` has the text on disk (reverting it). */
export async function documentMatchesDisk(file: string): Promise<void> {
	// Only the file's own document: a review's before-content document has the same path under
	// another scheme, and it never matches the disk.
	const document = vscode.workspace.textDocuments.find(
		(doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === file,
	);
	if (!document || document.isClosed) {
		return;
	}
	const disk = () => fs.readFileSync(file, 'utf8');
	await waitUntil(
		async () => {
			if (document.isClosed || document.getText() === disk()) {
				return true;
			}
			if (!document.isDirty) {
				// Read it from disk now instead of waiting for the watcher.
				await vscode.window.showTextDocument(document, { preview: true });
				await vscode.commands.executeCommand('workbench.action.files.revert');
			}
			return false;
		},
		30_000,
		`the editor's copy of ${path.basename(file)} to match the disk`,
		{
			seen: () => ({
				dirty: document.isDirty,
				version: document.version,
				active: vscode.window.activeTextEditor?.document.uri.fsPath,
				editor: document.getText().slice(0, 60),
				disk: disk().slice(0, 60),
			}),
		},
	);
}

export interface FakeZero {
	binary: string;
	stateDir: string;
	recordDir: string;
	/** Invocations of the fake, oldest first (argv, stdin, cwd). */
	records(): { argv: string[]; stdin: string; cwd: string }[];
	execRecords(): { argv: string[]; stdin: string; cwd: string }[];
}

const configuration = (): vscode.WorkspaceConfiguration =>
	vscode.workspace.getConfiguration('zero');

/** Points zero.path at the FAKE zero with fresh state and record folders (user settings). */
export async function useFakeZero(env: Record<string, string> = {}): Promise<FakeZero> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-it-'));
	const stateDir = path.join(root, 'state');
	const recordDir = path.join(root, 'records');
	const binary = path.join(extensionPath(), 'test', 'fixtures', 'fake-zero', 'zero');
	await configuration().update('path', binary, vscode.ConfigurationTarget.Global);
	await configuration().update(
		'env',
		{ FAKE_ZERO_STATE_DIR: stateDir, FAKE_ZERO_RECORD_DIR: recordDir, ...env },
		vscode.ConfigurationTarget.Global,
	);
	const api = await activate();
	await waitUntil(
		() => api.settings().path === binary && api.settings().env.FAKE_ZERO_RECORD_DIR === recordDir,
		5000,
		'the fake zero settings',
	);
	const records = (): { argv: string[]; stdin: string; cwd: string }[] => {
		if (!fs.existsSync(recordDir)) {
			return [];
		}
		return fs
			.readdirSync(recordDir)
			.sort((a, b) => Number(a.split('-')[0]) - Number(b.split('-')[0]))
			.map((name) => JSON.parse(fs.readFileSync(path.join(recordDir, name), 'utf8')));
	};
	return {
		binary,
		stateDir,
		recordDir,
		records,
		execRecords: () => records().filter((record) => record.argv[0] !== 'sandbox'),
	};
}

export async function resetSettings(): Promise<void> {
	for (const key of [
		'path',
		'env',
		'model',
		'permissionMode',
		'extraArgs',
		'maxTurns',
		'shellBaseline.enabled',
	]) {
		await configuration().update(key, undefined, vscode.ConfigurationTarget.Global);
	}
	// Machine-scoped settings cannot be written at workspace level at all.
	for (const key of ['model', 'permissionMode', 'maxTurns']) {
		await configuration().update(key, undefined, vscode.ConfigurationTarget.Workspace);
	}
}

export async function newChat(api: ZeroTestApi): Promise<string> {
	const before = api.currentChatId();
	await vscode.commands.executeCommand('zero.newChat');
	await waitUntil(() => api.currentChatId() !== before, 5000, 'a new chat');
	return api.currentChatId();
}

/**
 * A new chat on the FAKE zero with a session store of its own (`XDG_DATA_HOME`), laid out like
 * zero's: what the review, undo and edit tests start from.
 */
export async function chatWithSessionStore(): Promise<{ api: ZeroTestApi; fake: FakeZero }> {
	const api = await activate();
	const data = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-it-data-'));
	const fake = await useFakeZero({ XDG_DATA_HOME: data });
	await newChat(api);
	return { api, fake };
}

/** Sends a message and waits until the run (and any queued follow-up) has finished. */
export async function sendAndWait(
	api: ZeroTestApi,
	text: string,
	timeoutMs = 20000,
): Promise<Turn> {
	const turns = api.currentTranscript().turns.length;
	api.send(text);
	await waitUntil(() => api.currentTranscript().turns.length > turns, 5000, 'the turn to start');
	await api.whenIdle(timeoutMs);
	return lastTurn(api.currentTranscript());
}

export function lastTurn(transcript: Transcript): Turn {
	const turn = transcript.turns[transcript.turns.length - 1];
	assert.ok(turn, 'no turn');
	return turn;
}

export function flag(argv: string[], name: string): string | undefined {
	const prefix = `${name}=`;
	return argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

/** The extension activated, the FAKE zero as its binary, and a new empty chat. */
export async function chatOnFakeZero(): Promise<{ api: ZeroTestApi; fake: FakeZero }> {
	const api = await activate();
	const fake = await useFakeZero();
	await newChat(api);
	return { api, fake };
}
