import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import {
	appendFile,
	mkdir,
	mkdtemp,
	readFile,
	readdir,
	rm,
	stat,
	symlink,
	unlink,
	writeFile,
} from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	StoredCheckpointPayloadSchema,
	StoredSessionMetadataSchema,
	safeWorkspaceRelativePath,
} from '../../../src/zero/protocol/checkpointSchemas';
import {
	copyCheckpointBefore,
	readCachedContent,
	readCheckpointBefore,
	readCheckpointRecord,
	readZeroBlob,
} from '../../../src/zero/process/checkpointStore';
import { findSessionEvent, readSessionMetadata } from '../../../src/zero/process/sessionStore';
import {
	SESSION,
	copyRecordedStore,
	withRecordedStore,
	snapshotBytes,
	turnEvents,
	workspaceSnapshot,
} from '../checkpointFixtures';

const sha256 = (bytes: Uint8Array | string): string =>
	createHash('sha256').update(bytes).digest('hex');

/** Every recorded checkpoint event, with the tool_call id that precedes it in the stream. */
function recordedCheckpoints(): {
	turn: string;
	sequence: number;
	tool: string;
	files: string[];
	callId: string;
}[] {
	const out: { turn: string; sequence: number; tool: string; files: string[]; callId: string }[] =
		[];
	for (const turn of [
		't1-write-tools',
		't2-apply-patch',
		't4-add-dir-and-failed-edit',
		't5-plan-denied',
		't6-binary-and-mode',
		't7-over-cap',
	]) {
		let lastCall = '';
		for (const event of turnEvents(turn)) {
			if (event.type === 'tool_call') {
				lastCall = String(event.id);
			}
			if (event.type === 'checkpoint') {
				const info = event.checkpoint as { sequence: number; tool: string; files: string[] };
				out.push({ turn, ...info, callId: lastCall });
			}
		}
	}
	return out;
}

/** path -> sha256 and mtime of every file under dir (to prove nothing was written). */
async function treeState(dir: string): Promise<Record<string, string>> {
	const state: Record<string, string> = {};
	const visit = async (current: string): Promise<void> => {
		for (const entry of await readdir(current, { withFileTypes: true })) {
			const full = path.join(current, entry.name);
			if (entry.isDirectory()) {
				state[`${path.relative(dir, full)}/`] = String((await stat(full)).mtimeMs);
				await visit(full);
			} else {
				const info = await stat(full);
				state[path.relative(dir, full)] =
					`${sha256(await readFile(full))} ${info.mtimeMs} ${info.mode}`;
			}
		}
	};
	await visit(dir);
	return state;
}

describe('reading the recorded checkpoint store', () => {
	it('finds every recorded checkpoint with the tool, files and preceding call id of the stream', async () => {
		await withRecordedStore('after-turns', async (store) => {
			const checkpoints = recordedCheckpoints();
			assert.equal(checkpoints.length, 8);
			for (const expected of checkpoints) {
				const record = await readCheckpointRecord(store.root, SESSION, expected.sequence);
				assert.ok(
					record.ok,
					`${expected.turn} #${expected.sequence}: ${record.ok ? '' : record.reason}`,
				);
				assert.equal(record.value.tool, expected.tool);
				assert.equal(record.value.toolCallId, expected.callId);
				assert.deepEqual(
					record.value.entries.map((entry) => entry.path),
					expected.files,
				);
			}
		});
	});

	it('returns the before-content of every kind: bytes, new file, binary with mode, over the cap', async () => {
		await withRecordedStore('after-turns', async (store) => {
			const seed = workspaceSnapshot('0-seed');
			const afterT1 = workspaceSnapshot('1-after-t1');
			const t1New = await readCheckpointBefore(store.root, SESSION, 9);
			assert.ok(t1New.ok);
			assert.deepEqual(t1New.value.files, [{ path: 'notes/new.txt', kind: 'absent' }]);

			const t1Overwrite = await readCheckpointBefore(store.root, SESSION, 13);
			assert.ok(t1Overwrite.ok);
			const b = t1Overwrite.value.files[0];
			assert.equal(b.kind, 'bytes');
			assert.deepEqual(b.kind === 'bytes' && b.bytes, snapshotBytes(seed['b.txt']));
			assert.equal(b.kind === 'bytes' && b.mode, 0o644);

			// The failed edit of turn 4 saved a.txt as turn 1 left it.
			const failedEdit = await readCheckpointBefore(store.root, SESSION, 46);
			assert.ok(failedEdit.ok);
			const a = failedEdit.value.files[0];
			assert.deepEqual(a.kind === 'bytes' && a.bytes, snapshotBytes(afterT1['a.txt']));

			const patch = await readCheckpointBefore(store.root, SESSION, 25);
			assert.ok(patch.ok);
			assert.deepEqual(
				patch.value.files.map((file) => [file.path, file.kind]),
				[
					['c.txt', 'bytes'],
					['e.txt', 'bytes'],
					['f.txt', 'bytes'],
					['g.txt', 'absent'],
				],
			);

			const binary = await readCheckpointBefore(store.root, SESSION, 61);
			assert.ok(binary.ok);
			const [image, script] = binary.value.files;
			assert.deepEqual(image.kind === 'bytes' && image.bytes, snapshotBytes(seed['image.png']));
			assert.equal(image.kind === 'bytes' && image.sha256, seed['image.png'].sha256);
			assert.equal(script.kind === 'bytes' && script.mode, 0o755);

			const overCap = await readCheckpointBefore(store.root, SESSION, 69);
			assert.ok(overCap.ok);
			assert.deepEqual(overCap.value.files, [
				{ path: 'big.txt', kind: 'skipped', cause: 'over_cap', bytes: seed['big.txt'].size },
			]);
		});
	});

	it('reads the metadata zero keeps: eventCount and cwd', async () => {
		await withRecordedStore('after-turns', async (store) => {
			const metadata = await readSessionMetadata(store.root, SESSION);
			assert.ok(metadata.ok);
			assert.equal(metadata.value.eventCount, 73);
			assert.match(metadata.value.cwd ?? '', /ws\/checkpoints$/);
			const missing = await readSessionMetadata(store.root, 'no-such-session');
			assert.equal(missing.ok ? 'ok' : missing.code, 'not_found');
			await writeFile(
				path.join(store.dir, 'metadata.json'),
				'{"sessionId":"ck-main","eventCount":"7"}',
			);
			const drifted = await readSessionMetadata(store.root, SESSION);
			assert.equal(drifted.ok ? 'ok' : drifted.code, 'layout_changed');
			assert.match(drifted.ok ? '' : drifted.reason, /eventCount/);
		});
	});

	it('names what is not there: other event types, unknown sequences and sessions, bad ids', async () => {
		await withRecordedStore('after-turns', async (store) => {
			const message = await readCheckpointRecord(store.root, SESSION, 1);
			assert.equal(message.ok ? 'ok' : message.code, 'not_a_checkpoint');
			assert.match(message.ok ? '' : message.reason, /is a message/);
			const beyond = await readCheckpointRecord(store.root, SESSION, 74);
			assert.equal(beyond.ok ? 'ok' : beyond.code, 'not_found');
			const unknown = await readCheckpointRecord(store.root, 'other-session', 9);
			assert.equal(unknown.ok ? 'ok' : unknown.code, 'not_found');
			for (const bad of ['../ck-main', '-x', '', 'a/b']) {
				const result = await readCheckpointRecord(store.root, bad, 9);
				assert.equal(result.ok ? 'ok' : result.code, 'invalid_request', bad);
			}
			const zero = await readCheckpointRecord(store.root, SESSION, 0);
			assert.equal(zero.ok ? 'ok' : zero.code, 'invalid_request');
		});
	});

	it('never writes, locks or deletes anything in the store', async () => {
		const store = await copyRecordedStore('after-turns');
		const cache = await mkdtemp(path.join(os.tmpdir(), 'zero-ck-cache-'));
		try {
			const before = await treeState(store.root);
			for (const { sequence } of recordedCheckpoints()) {
				await readCheckpointBefore(store.root, SESSION, sequence);
				await copyCheckpointBefore(store.root, SESSION, sequence, cache);
			}
			await readSessionMetadata(store.root, SESSION);
			assert.deepEqual(await treeState(store.root), before);
		} finally {
			await store.cleanup();
			await rm(cache, { recursive: true, force: true });
		}
	});
});

describe('blobs that cannot be trusted', () => {
	const imageBlob = (dir: string, seedSha: string): string =>
		path.join(dir, 'checkpoints', 'blobs', seedSha);

	it('rejects a blob whose bytes do not match its sha256 name, in the reader and the copier', async () => {
		const store = await copyRecordedStore('after-turns');
		const cache = await mkdtemp(path.join(os.tmpdir(), 'zero-ck-cache-'));
		const seed = workspaceSnapshot('0-seed');
		try {
			await appendFile(imageBlob(store.dir, seed['image.png'].sha256), 'tampered');
			const read = await readCheckpointBefore(store.root, SESSION, 61);
			assert.ok(read.ok);
			assert.deepEqual(read.value.files[0], {
				path: 'image.png',
				kind: 'unavailable',
				reason: "zero's saved copy failed its sha256 check",
			});
			// The other file of the same checkpoint is still fine.
			assert.equal(read.value.files[1].kind, 'bytes');
			const copied = await copyCheckpointBefore(store.root, SESSION, 61, cache);
			assert.ok(copied.ok);
			assert.equal(copied.value.files[0].kind, 'unavailable');
			assert.deepEqual(await readdir(cache), [
				copied.value.files[1].kind === 'content' ? copied.value.files[1].sha256 : '?',
			]);
		} finally {
			await store.cleanup();
			await rm(cache, { recursive: true, force: true });
		}
	});

	it('says a blob is gone when zero deleted it, and refuses one larger than the cap', async () => {
		await withRecordedStore('after-turns', async (store) => {
			const seed = workspaceSnapshot('0-seed');
			await unlink(imageBlob(store.dir, seed['image.png'].sha256));
			const gone = await readZeroBlob(store.root, SESSION, seed['image.png'].sha256);
			assert.equal(gone.ok ? 'ok' : gone.code, 'not_found');
			assert.match(gone.ok ? '' : gone.reason, /deletes it after a rewind/);
			const small = await readZeroBlob(store.root, SESSION, seed['run.sh'].sha256, {
				maxBytes: 10,
			});
			assert.equal(small.ok ? 'ok' : small.code, 'too_large');
			const fits = await readZeroBlob(store.root, SESSION, seed['run.sh'].sha256, { maxBytes: 19 });
			assert.equal(fits.ok, true);
			const badName = await readZeroBlob(store.root, SESSION, '../../metadata.json');
			assert.equal(badName.ok ? 'ok' : badName.code, 'invalid_request');
		});
	});

	// Something zero did not write planted in place of the image's blob: refused as corrupt, and
	// reading it neither follows it nor blocks.
	const planted = [
		{
			name: 'does not follow a symbolic link planted as a blob',
			reason: /is a symbolic link, not a file/,
			plant: async (blob: string, root: string) => {
				const elsewhere = path.join(root, '..', 'elsewhere');
				await writeFile(elsewhere, await readFile(blob));
				await unlink(blob);
				await symlink(elsewhere, blob);
			},
		},
		{
			name: 'does not hang on a FIFO planted as a blob',
			reason: /not a regular file/,
			plant: async (blob: string) => {
				await unlink(blob);
				execFileSync('mkfifo', [blob]);
			},
		},
	];
	for (const { name, reason, plant } of planted) {
		it(name, { skip: process.platform === 'win32' }, async () => {
			await withRecordedStore('after-turns', async (store) => {
				const seed = workspaceSnapshot('0-seed');
				const blob = imageBlob(store.dir, seed['image.png'].sha256);
				await plant(blob, store.root);
				let timer: NodeJS.Timeout | undefined;
				const read = await Promise.race([
					readZeroBlob(store.root, SESSION, seed['image.png'].sha256),
					new Promise<'hung'>((resolve) => {
						timer = setTimeout(() => resolve('hung'), 5000);
					}),
				]);
				clearTimeout(timer);
				if (read === 'hung') {
					// Open the writing end so the blocked open returns and the test process can end.
					closeSync(openSync(blob, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK));
					assert.fail('opening the planted blob blocked');
				}
				assert.equal(read.ok ? 'ok' : read.code, 'corrupt');
				assert.match(read.ok ? '' : read.reason, reason);
			});
		});
	}
});

describe("drift in zero's events.jsonl", () => {
	const checkpointLine = (sequence: number, payload: unknown): string =>
		JSON.stringify({
			id: `${SESSION}:${sequence}`,
			sessionId: SESSION,
			sequence,
			type: 'session_checkpoint',
			createdAt: '2026-12-01T00:00:00Z',
			payload,
		});

	it('fails clearly when a checkpoint payload changed shape, and keeps unknown keys', async () => {
		await withRecordedStore('after-turns', async (store) => {
			await appendFile(
				path.join(store.dir, 'events.jsonl'),
				`${checkpointLine(74, { tool: 'write_file', files: [{ file: 'renamed.txt', blob: 'x' }] })}\n`,
			);
			const drifted = await readCheckpointRecord(store.root, SESSION, 74);
			assert.equal(drifted.ok ? 'ok' : drifted.code, 'layout_changed');
			assert.match(drifted.ok ? '' : drifted.reason, /files\.0\.path/);

			const parsed = StoredCheckpointPayloadSchema.parse({
				tool: 'write_file',
				files: [{ path: 'a.txt', absent: true, futureField: 1 }],
				extra: { kept: true },
			});
			assert.deepEqual(parsed.extra, { kept: true });
			assert.equal(parsed.files[0].futureField, 1);
			assert.equal(
				StoredSessionMetadataSchema.safeParse({ sessionId: 's', eventCount: 3, newKey: 'x' }).data
					?.newKey,
				'x',
			);
		});
	});

	it('marks entries whose path or blob name would point elsewhere as unavailable', async () => {
		await withRecordedStore('after-turns', async (store) => {
			await appendFile(
				path.join(store.dir, 'events.jsonl'),
				`${checkpointLine(74, {
					tool: 'write_file',
					files: [
						{ path: '../outside.txt', absent: true },
						{ path: '/etc/passwd', blob: 'a'.repeat(64) },
						{ path: 'C:\\x.txt', absent: true },
						{ path: 'ok.txt', blob: '../../../metadata.json' },
						{ path: './sub//file.txt', absent: true },
					],
				})}\n`,
			);
			const record = await readCheckpointRecord(store.root, SESSION, 74);
			assert.ok(record.ok);
			assert.deepEqual(
				record.value.entries.map((entry) => [entry.path, entry.state]),
				[
					['../outside.txt', 'invalid'],
					['/etc/passwd', 'invalid'],
					['C:\\x.txt', 'invalid'],
					['ok.txt', 'invalid'],
					['sub/file.txt', 'absent'],
				],
			);
			assert.equal(safeWorkspaceRelativePath('a\0b'), undefined);
		});
	});

	it('finds a checkpoint behind huge lines and in a long file, with bounded memory', async () => {
		await withRecordedStore('after-turns', async (store) => {
			const events = path.join(store.dir, 'events.jsonl');
			const big = 'x'.repeat(3 * 1024 * 1024);
			let text = '';
			for (let sequence = 74; sequence < 80; sequence++) {
				text += `${JSON.stringify({ id: `${SESSION}:${sequence}`, sessionId: SESSION, sequence, type: 'tool_result', payload: { output: big } })}\n`;
			}
			text += `${checkpointLine(80, { tool: 'edit_file', files: [{ path: 'a.txt', absent: true }] })}\n`;
			await appendFile(events, text);
			// Early sequences are before the tail window and need the full scan.
			const early = await readCheckpointRecord(store.root, SESSION, 9, { maxLineBytes: 64 * 1024 });
			assert.ok(early.ok);
			const late = await readCheckpointRecord(store.root, SESSION, 80, { maxLineBytes: 64 * 1024 });
			assert.ok(late.ok);
			assert.equal(late.value.entries[0].path, 'a.txt');
			// An oversized line is identified but not parsed.
			const huge = await findSessionEvent(store.root, SESSION, 75, { maxLineBytes: 64 * 1024 });
			assert.equal(huge.ok ? 'ok' : huge.code, 'too_large');
			const parsedInFull = await findSessionEvent(store.root, SESSION, 75);
			assert.equal(parsedInFull.ok && parsedInFull.value.event.type, 'tool_result');
		});
	});

	it('ignores a torn last line as zero does, and reads past an unreadable line', async () => {
		await withRecordedStore('after-turns', async (store) => {
			const events = path.join(store.dir, 'events.jsonl');
			const original = await readFile(events, 'utf8');
			const lines = original.split('\n');
			lines.splice(2, 0, 'not json at all');
			await writeFile(events, `${lines.join('\n')}{"id":"ck-main:74","sequ`);
			const found = await readCheckpointRecord(store.root, SESSION, 69);
			assert.ok(found.ok);
			const torn = await readCheckpointRecord(store.root, SESSION, 74);
			assert.equal(torn.ok ? 'ok' : torn.code, 'not_found');
			assert.match(torn.ok ? '' : torn.reason, /1 unreadable line/);
		});
	});
});

describe('copying before-content into our storage', () => {
	it("keeps verified, content-addressed copies that outlive zero's rewind", async () => {
		const store = await copyRecordedStore('after-turns');
		const cache = path.join(await mkdtemp(path.join(os.tmpdir(), 'zero-ck-cache-')), 'before');
		const seed = workspaceSnapshot('0-seed');
		try {
			const copied = await copyCheckpointBefore(store.root, SESSION, 61, cache);
			assert.ok(copied.ok);
			assert.deepEqual(copied.value.files, [
				{
					path: 'image.png',
					kind: 'content',
					sha256: seed['image.png'].sha256,
					size: 39,
					mode: 0o644,
				},
				{ path: 'run.sh', kind: 'content', sha256: seed['run.sh'].sha256, size: 19, mode: 0o755 },
			]);
			assert.deepEqual(
				(await readdir(cache)).sort(),
				[seed['image.png'].sha256, seed['run.sh'].sha256].sort(),
			);
			// Again: nothing changes and no temporary file is left.
			const again = await copyCheckpointBefore(store.root, SESSION, 61, cache);
			assert.deepEqual(again, copied);
			assert.equal((await readdir(cache)).length, 2);

			// After zero rewound turn 6 its checkpoint and blobs are gone; our copy is not.
			await withRecordedStore('after-rewind-t6', async (rewound) => {
				const afterRewind = await readCheckpointRecord(rewound.root, SESSION, 61);
				assert.equal(afterRewind.ok ? 'ok' : afterRewind.code, 'not_found');
				const blobGone = await readZeroBlob(rewound.root, SESSION, seed['image.png'].sha256);
				assert.equal(blobGone.ok ? 'ok' : blobGone.code, 'not_found');
			});
			const cached = await readCachedContent(cache, seed['image.png'].sha256);
			assert.deepEqual(cached.ok && cached.value, snapshotBytes(seed['image.png']));
		} finally {
			await store.cleanup();
			await rm(path.dirname(cache), { recursive: true, force: true });
		}
	});

	it('refuses to copy a blob larger than the cap and leaves nothing behind', async () => {
		const store = await copyRecordedStore('after-turns');
		const cache = await mkdtemp(path.join(os.tmpdir(), 'zero-ck-cache-'));
		try {
			const copied = await copyCheckpointBefore(store.root, SESSION, 61, cache, { maxBytes: 20 });
			assert.ok(copied.ok);
			assert.deepEqual(
				copied.value.files.map((file) => [file.path, file.kind]),
				[
					['image.png', 'unavailable'],
					['run.sh', 'content'],
				],
			);
			assert.match(
				copied.value.files[0].kind === 'unavailable' ? copied.value.files[0].reason : '',
				/39 bytes, more than 20/,
			);
			assert.equal((await readdir(cache)).length, 1);
		} finally {
			await store.cleanup();
			await rm(cache, { recursive: true, force: true });
		}
	});

	it('reports skipped and new files without copying anything', async () => {
		const store = await copyRecordedStore('after-turns');
		const cache = await mkdtemp(path.join(os.tmpdir(), 'zero-ck-cache-'));
		try {
			const overCap = await copyCheckpointBefore(store.root, SESSION, 69, cache);
			assert.ok(overCap.ok);
			assert.equal(overCap.value.files[0].kind, 'skipped');
			const created = await copyCheckpointBefore(store.root, SESSION, 9, cache);
			assert.ok(created.ok);
			assert.deepEqual(created.value.files, [{ path: 'notes/new.txt', kind: 'absent' }]);
			assert.deepEqual(await readdir(cache), []);
		} finally {
			await store.cleanup();
			await rm(cache, { recursive: true, force: true });
		}
	});

	it('checks our own copy again when it is read back', async () => {
		const cache = await mkdtemp(path.join(os.tmpdir(), 'zero-ck-cache-'));
		try {
			const content = 'hello\n';
			await writeFile(path.join(cache, sha256(content)), 'tampered\n');
			const read = await readCachedContent(cache, sha256(content));
			assert.equal(read.ok ? 'ok' : read.code, 'corrupt');
			const missing = await readCachedContent(cache, sha256('other'));
			assert.equal(missing.ok ? 'ok' : missing.code, 'not_found');
			await mkdir(path.join(cache, 'sub'));
			const invalid = await readCachedContent(cache, 'sub');
			assert.equal(invalid.ok ? 'ok' : invalid.code, 'invalid_request');
		} finally {
			await rm(cache, { recursive: true, force: true });
		}
	});
});
