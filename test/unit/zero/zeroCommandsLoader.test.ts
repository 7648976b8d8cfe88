import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

import {
	MAX_COMMAND_BYTES,
	MAX_COMMAND_FILES,
	loadZeroCommands,
	zeroCommandDirs,
} from '../../../src/zero/process/zeroCommandsLoader';

const posixOnly =
	process.platform === 'win32' ? 'symbolic links need privileges on Windows' : false;

describe("loading zero's user commands", () => {
	let root: string;
	let workspace: string;
	let projectDir: string;
	let userDir: string;

	before(async () => {
		root = await mkdtemp(path.join(os.tmpdir(), 'zero-commands-'));
		workspace = path.join(root, 'ws');
		projectDir = path.join(workspace, '.zero', 'commands');
		userDir = path.join(root, 'config', 'zero', 'commands');
		await mkdir(projectDir, { recursive: true });
		await mkdir(userDir, { recursive: true });
	});
	after(() => rm(root, { recursive: true, force: true }));

	async function fresh(): Promise<void> {
		await rm(projectDir, { recursive: true, force: true });
		await rm(userDir, { recursive: true, force: true });
		await mkdir(projectDir, { recursive: true });
		await mkdir(userDir, { recursive: true });
	}

	const dirs = () => ({ project: { dir: projectDir, root: workspace }, user: { dir: userDir } });

	it('finds the folders zero reads: <cwd>/.zero/commands and <user config>/zero/commands', () => {
		assert.deepEqual(zeroCommandDirs('/w', 'linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/u'), {
			project: { dir: path.join('/w', '.zero', 'commands'), root: '/w' },
			user: { dir: '/cfg/zero/commands' },
		});
		assert.deepEqual(zeroCommandDirs(undefined, 'linux', {}, '/home/u'), {
			user: { dir: '/home/u/.config/zero/commands' },
		});
		assert.deepEqual(
			zeroCommandDirs(undefined, 'win32', { APPDATA: 'C:\\A' }, 'C:\\U').user?.dir,
			'C:\\A\\zero\\commands',
		);
	});

	it('lists both folders, the project shadowing the user, skipping other files and folders', async () => {
		await fresh();
		await writeFile(path.join(userDir, 'review.md'), 'USER version');
		await writeFile(path.join(userDir, 'mine.md'), '---\ndescription: Mine\n---\nMy $1');
		await writeFile(path.join(projectDir, 'review.md'), 'PROJECT version');
		await writeFile(path.join(projectDir, 'notes.txt'), 'not a command');
		await writeFile(path.join(projectDir, 'Bad Name.md'), 'bad name');
		await mkdir(path.join(projectDir, 'folder.md'));
		const loaded = await loadZeroCommands(dirs());
		assert.deepEqual(
			loaded.commands.map((c) => [c.name, c.template, c.project, c.description]),
			[
				['mine', 'My $1', false, 'Mine'],
				['review', 'PROJECT version', true, 'User command: /review'],
			],
		);
		assert.deepEqual(loaded.skipped, []);
	});

	it('in one folder "A.md" and "a.md" are one command, the later in name order winning as in zero', async () => {
		await fresh();
		await writeFile(path.join(projectDir, 'A.md'), 'upper');
		await writeFile(path.join(projectDir, 'a.md'), 'lower');
		const loaded = await loadZeroCommands(dirs());
		assert.deepEqual(
			loaded.commands.map((c) => c.template),
			// Case-insensitive file systems hold only one of them.
			process.platform === 'linux' ? ['lower'] : [loaded.commands[0]?.template],
		);
	});

	it('missing folders have no commands', async () => {
		const loaded = await loadZeroCommands({
			project: { dir: path.join(root, 'nope'), root },
			user: { dir: path.join(root, 'nope2') },
		});
		assert.deepEqual(loaded, { commands: [], skipped: [] });
		assert.deepEqual(await loadZeroCommands({}), { commands: [], skipped: [] });
	});

	it(`refuses a file over ${MAX_COMMAND_BYTES} bytes and says so`, async () => {
		await fresh();
		await writeFile(path.join(projectDir, 'big.md'), 'x'.repeat(MAX_COMMAND_BYTES + 1));
		await writeFile(path.join(projectDir, 'edge.md'), 'y'.repeat(MAX_COMMAND_BYTES));
		const loaded = await loadZeroCommands(dirs());
		assert.deepEqual(
			loaded.commands.map((c) => c.name),
			['edge'],
		);
		assert.equal(loaded.skipped.length, 1);
		assert.match(loaded.skipped[0].reason, /larger than 65536 bytes/);
	});

	it(`reads at most ${MAX_COMMAND_FILES} files of a folder`, async () => {
		await fresh();
		for (let index = 0; index < MAX_COMMAND_FILES + 3; index++) {
			await writeFile(path.join(projectDir, `c${String(index).padStart(3, '0')}.md`), `t${index}`);
		}
		const loaded = await loadZeroCommands(dirs());
		assert.equal(loaded.commands.length, MAX_COMMAND_FILES);
		assert.equal(loaded.commands.at(-1)?.name, `c${MAX_COMMAND_FILES - 1}`);
		// Each file past the cap is named, so that typing its command says why it does not run.
		assert.deepEqual(
			loaded.skipped,
			[200, 201, 202].map((index) => ({
				path: path.join(projectDir, `c${index}.md`),
				name: `c${index}`,
				project: true,
				reason: `one of more than ${MAX_COMMAND_FILES} command files in its folder`,
			})),
		);
	});

	it(
		'follows a link that stays in the workspace, refuses one that leads out',
		{ skip: posixOnly },
		async () => {
			await fresh();
			await writeFile(path.join(workspace, 'doc.md'), 'inside');
			await writeFile(path.join(root, 'secret.md'), 'outside');
			await symlink(path.join(workspace, 'doc.md'), path.join(projectDir, 'inside.md'));
			await symlink(path.join(root, 'secret.md'), path.join(projectDir, 'outside.md'));
			await symlink(path.join(root, 'missing.md'), path.join(projectDir, 'dangling.md'));
			// A user command may not lead out of the user's commands folder either.
			await symlink(path.join(root, 'secret.md'), path.join(userDir, 'leak.md'));
			const loaded = await loadZeroCommands(dirs());
			assert.deepEqual(
				loaded.commands.map((c) => [c.name, c.template]),
				[['inside', 'inside']],
			);
			const reasons = Object.fromEntries(
				loaded.skipped.map((s) => [path.basename(s.path), s.reason]),
			);
			assert.equal(reasons['outside.md'], 'a link that leads out of its folder');
			assert.equal(reasons['leak.md'], 'a link that leads out of its folder');
			assert.match(reasons['dangling.md'], /cannot be resolved/);
		},
	);

	it(
		'refuses a command file that is a link to a file the chat may not read (#31 item 8); the user command of its name does not run instead',
		{ skip: posixOnly },
		async () => {
			await fresh();
			await writeFile(path.join(workspace, '.env'), 'TOKEN=secret\n');
			await writeFile(path.join(workspace, 'notes.md'), 'Summarize the notes.');
			await symlink(path.join(workspace, '.env'), path.join(projectDir, 'deploy.md'));
			await symlink(path.join(workspace, 'notes.md'), path.join(projectDir, 'notes.md'));
			await writeFile(path.join(userDir, 'deploy.md'), 'My own deploy.');
			const hiddenAsked: string[] = [];
			const loaded = await loadZeroCommands({
				...dirs(),
				project: {
					...dirs().project,
					hidden: async (absolute) => {
						hiddenAsked.push(path.basename(absolute));
						return path.basename(absolute) === '.env' ? 'ignored by .gitignore' : undefined;
					},
				},
			});
			assert.deepEqual(
				loaded.commands.map((c) => [c.name, c.template]),
				[['notes', 'Summarize the notes.']],
			);
			assert.deepEqual(loaded.skipped, [
				{
					path: path.join(projectDir, 'deploy.md'),
					name: 'deploy',
					project: true,
					reason: 'a link to a file the chat may not read (ignored by .gitignore)',
				},
			]);
			assert.deepEqual(hiddenAsked.sort(), ['.env', 'notes.md'], 'only links are asked about');
		},
	);

	it('refuses a FIFO without blocking', { skip: posixOnly }, async () => {
		await fresh();
		const { execFileSync } = await import('node:child_process');
		execFileSync('mkfifo', [path.join(projectDir, 'pipe.md')]);
		const loaded = await loadZeroCommands(dirs());
		assert.deepEqual(loaded.commands, []);
		assert.deepEqual(
			loaded.skipped.map((s) => s.reason),
			['not a regular file'],
		);
	});
});
