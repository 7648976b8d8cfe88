/**
 * Chats shared with other windows on the same workspace storage (real extension host, FAKE zero):
 * a chat another window is streaming into (it holds a lease) is not deleted from this one.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as support from './support';

describe('chats shared with other windows (FAKE zero)', function () {
	this.timeout(60_000);
	after(support.resetSettings);

	it('Delete Chat refuses a chat another window is streaming into, and deletes it once that run ends', async () => {
		const api = await support.activate();
		await support.useFakeZero();
		const chatId = await support.newChat(api);
		await support.sendAndWait(api, 'shared [scenario:answer]');
		const dir = path.join(api.storagePath(), 'chats', chatId);
		// The chat is saved after its run ends, on a timer: wait for that save, so the check below
		// is about the delete and a late save cannot bring the chat back after it.
		const transcriptFile = path.join(dir, 'transcript.json');
		await support.waitUntil(
			() => {
				try {
					const saved = JSON.parse(fs.readFileSync(transcriptFile, 'utf8'));
					return saved.turns?.[0]?.run?.end !== undefined;
				} catch {
					return false;
				}
			},
			30_000,
			'the chat saved with its finished run',
		);
		// What another window's run leaves while it streams: a lease naming a live process.
		const lease = path.join(dir, 'leases', `${process.pid}-otherwindow.lease`);
		fs.mkdirSync(path.dirname(lease), { recursive: true });
		fs.writeFileSync(lease, JSON.stringify({ pid: process.pid }));

		api.answerNextConfirmation(true);
		await vscode.commands.executeCommand('zero.deleteChat', chatId);
		assert.ok(fs.existsSync(transcriptFile), 'not deleted while streamed into');

		fs.rmSync(lease);
		api.answerNextConfirmation(true);
		await vscode.commands.executeCommand('zero.deleteChat', chatId);
		assert.equal(fs.existsSync(dir), false);
	});
});
