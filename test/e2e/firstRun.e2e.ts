/**
 * The README's first set-up command, as a new user runs it: `npm start` (test/harness/start.js)
 * with a fresh profile must land on the "Get started with Zero" walkthrough, whose steps then tick
 * themselves once zero is set up, and must not reopen it after a reload. This runs the extension
 * under development, exactly as `npm start` loads it, not the packaged .vsix.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { mergeSettingsFile, repoRoot, testOutputDir } from '../harness/codeServer';
import { EXTENSION_ID } from '../harness/e2e';
import { zeroLogFiles } from '../harness/zeroLog';
import {
	closeTabByClick,
	launchBrowser,
	newPage,
	openWorkbench,
	screenshot,
} from '../harness/workbench';
import { FAKE_ZERO, step, waitUntil } from './fakeChat';

const CATEGORY = `${EXTENSION_ID}#gettingStarted`;
const STEP_TITLES = [
	'Install zero',
	'Connect a model provider',
	'Ask a first question',
	'Inspect your workspace',
];

let start: ChildProcess;
let home: string | undefined;
let output = '';
let browser: Browser;
let page: Page;

function printed(label: string): string | undefined {
	return new RegExp(`^\\s*${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];
}

/**
 * This machine as a new user's: an empty home (so no ~/go/bin or ~/.local/bin) and a PATH without
 * any folder that holds a `zero`, so that a zero the developer installed is not found.
 */
function machineWithoutZero(): NodeJS.ProcessEnv {
	home = fs.mkdtempSync(path.join(os.tmpdir(), 'zero-first-run-home-'));
	const pathDirs = (process.env.PATH ?? '')
		.split(path.delimiter)
		.filter((dir) => dir !== '' && !fs.existsSync(path.join(dir, 'zero')));
	const env: NodeJS.ProcessEnv = {
		...process.env,
		HOME: home,
		PATH: pathDirs.join(path.delimiter),
	};
	delete env.GOBIN;
	delete env.GOPATH;
	return env;
}

before(async () => {
	const logFile = path.join(testOutputDir, 'e2e', 'first-run.npm-start.log');
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	// `npm start` is `node test/harness/start.js`; --code-server keeps it off a desktop `code`.
	start = spawn(process.execPath, ['test/harness/start.js', '--code-server'], {
		cwd: repoRoot,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: machineWithoutZero(),
	});
	for (const stream of [start.stdout, start.stderr]) {
		stream?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			fs.writeFileSync(logFile, output);
		});
	}
	await waitUntil(
		async () => printed('Open') !== undefined || start.exitCode !== null,
		240_000,
		'npm start to print the URL',
	);
	assert.equal(start.exitCode, null, `npm start exited early:\n${output}`);
	browser = await launchBrowser();
	page = await newPage(browser, {
		consoleLog: path.join(testOutputDir, 'e2e', 'first-run.browser-console.log'),
	});
});

/** Ctrl+C, as a user stops it; resolves to the exit code, or 'timeout'. */
async function stopNpmStart(timeoutMs = 30_000): Promise<number | null | 'timeout'> {
	if (start.exitCode !== null) {
		return start.exitCode;
	}
	const exited = new Promise<number | null>((resolve) => start.once('exit', resolve));
	start.kill('SIGINT');
	return Promise.race([
		exited,
		new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs)),
	]);
}

after(async () => {
	await browser?.close().catch(() => {});
	// After a failed test: the same Ctrl+C, so that start.js stops its code-server too.
	if (start && (await stopNpmStart()) === 'timeout') {
		start.kill('SIGKILL');
	}
	if (home) {
		fs.rmSync(home, { recursive: true, force: true });
	}
});

/** Command lines of live processes that name `text` (code-server gets the profile path). */
function processesMentioning(text: string): string[] {
	const found: string[] = [];
	for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
		try {
			const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
			if (cmdline.includes(text)) {
				found.push(`${pid}: ${cmdline}`);
			}
		} catch {
			// gone meanwhile
		}
	}
	return found;
}

const walkthroughTab = () =>
	page.locator('.tabs-container .tab', { hasText: /Walkthrough: Zero/ }).first();

function stepElement(id: string) {
	return page.locator(`.gettingStartedContainer button[data-step-id="${CATEGORY}#${id}"]`);
}

async function stepDone(id: string): Promise<boolean> {
	const checkbox = stepElement(id).locator('.codicon').first();
	return ((await checkbox.getAttribute('class').catch(() => '')) ?? '').includes('complete');
}

test('npm start with a fresh profile opens the "Get started with Zero" walkthrough', async () => {
	await step(page, 'first-run-walkthrough', async () => {
		const profile = printed('Profile');
		assert.ok(profile && fs.existsSync(profile), `npm start printed its fresh profile: ${profile}`);
		assert.match(output, /fresh: what a new user sees on first run/);
		await openWorkbench(page, printed('Open')!);
		await walkthroughTab().waitFor({ timeout: 60_000 });
		const tabs = await page.locator('.tabs-container .tab').allInnerTexts();
		assert.deepEqual(
			tabs.map((tab) => tab.trim()),
			['Walkthrough: Zero'],
			'only our walkthrough, not VS Code\u2019s own Welcome page',
		);
		const container = page.locator('.gettingStartedContainer').first();
		await waitUntil(
			async () => /Get started with Zero/.test(await container.innerText().catch(() => '')),
			15_000,
			'the walkthrough title',
		);
		const visibleSteps = await page
			.locator('.gettingStartedContainer button[data-step-id] .step-title')
			.allInnerTexts();
		assert.deepEqual(
			visibleSteps.map((title) => title.trim()),
			STEP_TITLES,
			'the four steps, and not the hidden registration probe',
		);
		assert.equal(
			await stepDone('install'),
			false,
			'no zero yet: "Install zero" is not done (a zero in /usr/local/bin or the npm global bin would still be found)',
		);
		await screenshot(page, 'setup-0-npm-start-walkthrough');
	});
});

test('the steps tick themselves once zero is set up', async () => {
	await step(page, 'first-run-steps', async () => {
		// What "Locate zero..." does: zero.path (machine-scoped) in the remote machine's settings.
		const machineSettings = path.join(printed('Profile')!, 'Machine', 'settings.json');
		mergeSettingsFile(machineSettings, { 'zero.path': FAKE_ZERO });
		await waitUntil(
			async () => (await stepDone('install')) && (await stepDone('provider')),
			60_000,
			'"Install zero" and "Connect a model provider" to tick themselves',
		);
		assert.equal(await stepDone('ask'), false, 'no question asked yet');
		await screenshot(page, 'setup-0b-walkthrough-steps-done');
	});
});

/** The Zero logs of the profile's extension hosts (one per window load). */
function zeroLogs(): string[] {
	return zeroLogFiles(printed('Profile')!);
}

test('the walkthrough opens once per profile: not again after a reload', async () => {
	await step(page, 'first-run-once', async () => {
		await closeTabByClick(page, walkthroughTab(), 'Walkthrough: Zero');
		const logsBefore = zeroLogs();
		await page.reload();
		await openWorkbench(page, page.url());
		// The reloaded window's extension host writes a new Zero log; Zero says there why it does
		// not open the walkthrough, once it has decided.
		await waitUntil(
			() =>
				zeroLogs()
					.filter((file) => !logsBefore.includes(file))
					.some((file) =>
						/Not opening the "Get started with Zero" walkthrough: it was offered in this profile before/.test(
							fs.readFileSync(file, 'utf8'),
						),
					),
			60_000,
			'the reloaded Zero to decide not to open the walkthrough again',
			{
				seen: () =>
					`Zero logs ${JSON.stringify(zeroLogs())} (before the reload: ${JSON.stringify(logsBefore)})`,
			},
		);
		assert.equal(await walkthroughTab().count(), 0, 'the walkthrough did not come back');
	});
});

test('Ctrl+C stops npm start and removes its fresh profile', async () => {
	const profile = printed('Profile')!;
	const code = await stopNpmStart();
	assert.equal(code, 0, `npm start exit code (output:\n${output.slice(-2000)})`);
	assert.equal(fs.existsSync(profile), false, 'the fresh profile was removed');
	assert.deepEqual(processesMentioning(profile), [], 'no code-server process is left');
});
