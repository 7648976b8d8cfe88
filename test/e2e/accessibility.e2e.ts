/**
 * Notices a user can act on, and read: axe-core (from npm, injected into the chat webview's own
 * frame) over a finished run, a refused call with its notice and its details open, a run stopped
 * at the turn limit, and the setup states ("connect a provider" for a new user without an API key,
 * "zero is not installed"), in a light, a dark and a high-contrast theme. No serious or critical
 * violation may remain. Also the screenshots of the turn limit and of the new user's setup state.
 * Packaged extension in code-server, FAKE zero (the setup answers are the REAL zero's, recorded).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { mergeSettingsFile, testOutputDir } from '../harness/codeServer';
import { findWebviewFrame, screenshot } from '../harness/workbench';
import {
	FAKE_ZERO,
	send,
	startFakeChat,
	step,
	waitForRunEnd,
	waitUntil,
	type FakeChatSession,
} from './fakeChat';

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const THEMES = [
	{ name: 'light', id: 'Default Light Modern', bodyClass: 'vscode-light' },
	{ name: 'dark', id: 'Default Dark Modern', bodyClass: 'vscode-dark' },
	{ name: 'high-contrast', id: 'Default High Contrast', bodyClass: 'vscode-high-contrast' },
] as const;

interface Violation {
	id: string;
	impact: string | null;
	help: string;
	nodes: { target: string; html: string; summary: string }[];
}

let session: FakeChatSession;

before(async () => {
	// A turn limit of 2: the turn-limit scenario (recorded from the real zero) makes 3 requests.
	session = await startFakeChat('accessibility', {}, { 'zero.maxTurns': 2 });
});

after(async () => {
	await session?.close();
});

function userSettings(): string {
	return path.join(session.wb.server.userDataDir, 'User', 'settings.json');
}

function machineSettings(): string {
	return path.join(session.wb.server.userDataDir, 'Machine', 'settings.json');
}

async function chatFrame(page: Page): Promise<Frame> {
	return findWebviewFrame(page, '#app[data-state="ready"]', 60_000);
}

async function useTheme(page: Page, theme: (typeof THEMES)[number]): Promise<Frame> {
	mergeSettingsFile(userSettings(), { 'workbench.colorTheme': theme.id });
	let frame = await chatFrame(page);
	await waitUntil(
		async () => {
			frame = await chatFrame(page);
			return frame.evaluate((name) => document.body.classList.contains(name), theme.bodyClass);
		},
		30_000,
		`the ${theme.name} theme in the chat view`,
	);
	return frame;
}

async function useBinary(page: Page, binary: string, state: string): Promise<Frame> {
	mergeSettingsFile(machineSettings(), { 'zero.path': binary });
	let frame = await chatFrame(page);
	await waitUntil(
		async () => {
			frame = await chatFrame(page);
			return (await frame.locator('#app').getAttribute('data-readiness')) === state;
		},
		30_000,
		`the "${state}" state`,
	);
	return frame;
}

/** Runs axe-core in the webview's document; returns every violation (and saves them). */
async function axe(frame: Frame, label: string): Promise<Violation[]> {
	// Evaluated through the debugger protocol, which the webview's script CSP does not restrict.
	if (!(await frame.evaluate(() => 'axe' in window))) {
		await frame.evaluate(AXE_SOURCE);
	}
	const violations = await frame.evaluate(async () => {
		const run = (
			window as unknown as {
				axe: {
					run(
						context: Document,
						options: object,
					): Promise<{
						violations: {
							id: string;
							impact: string | null;
							help: string;
							nodes: { target: unknown[]; html: string; failureSummary?: string }[];
						}[];
					}>;
				};
			}
		).axe.run;
		const result = await run(document, { resultTypes: ['violations'] });
		return result.violations.map((violation) => ({
			id: violation.id,
			impact: violation.impact,
			help: violation.help,
			nodes: violation.nodes.map((node) => ({
				target: node.target.join(' '),
				html: node.html.slice(0, 200),
				summary: node.failureSummary ?? '',
			})),
		}));
	});
	const dir = path.join(testOutputDir, 'axe');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, `${label}.json`), `${JSON.stringify(violations, null, 2)}\n`);
	const counts = violations.map(
		(violation) => `${violation.id}(${violation.impact}):${violation.nodes.length}`,
	);
	console.log(`axe ${label}: ${violations.length} violation rule(s) ${counts.join(' ')}`);
	return violations;
}

function serious(violations: Violation[]): Violation[] {
	return violations.filter(
		(violation) => violation.impact === 'serious' || violation.impact === 'critical',
	);
}

function describeViolations(violations: Violation[]): string {
	return violations
		.map(
			(violation) =>
				`${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
					.slice(0, 5)
					.map((node) => `  ${node.target}: ${node.summary.replace(/\s+/g, ' ').slice(0, 300)}`)
					.join('\n')}`,
		)
		.join('\n');
}

test('the chat: a finished run, a refused call, a run stopped at the turn limit', async () => {
	await step(session.page, 'accessibility-chat', async () => {
		const frame = await session.chat();
		await send(frame, 'Say hello [scenario:answer]');
		await waitForRunEnd(frame, 'Say hello');
		await send(frame, 'Run the tests [scenario:shell-blocked]');
		await waitForRunEnd(frame, 'Run the tests');
		await send(frame, 'Keep reading [scenario:turn-limit]');
		const status = await waitForRunEnd(frame, 'Keep reading');
		const limit = status.locator('.run-notice[data-notice="turn_limit"]');
		await limit.waitFor();
		assert.match(await status.locator('.status-title').innerText(), /Stopped at the turn limit/);
		assert.equal(
			(await limit.locator('.notice-actions [data-action-id="continue"]').innerText()).trim(),
			'Continue',
		);
		assert.match(
			(await limit.locator('.notice-actions .copy-command').getAttribute('data-text')) ?? '',
			/ --resume=\S+ --max-turns=2 /,
		);
		// zero's last answer (from its final, tool-less request) is on screen.
		assert.match(
			await frame.locator('[data-kind="text"]').last().innerText(),
			/did not finish: the turn limit/,
		);
		await screenshot(session.page, 'notices-1-turn-limit');
		// Open the refused call's details, so axe sees the commands and the other options too.
		const refused = frame.locator('[data-kind="tool"][data-tool="bash"] .permission-notice.block');
		await refused.locator('.notice-toggle').click();
		await refused.locator('.notice-details').waitFor();
		await screenshot(session.page, 'notices-2-refused-call-details');
	});
});

for (const theme of THEMES) {
	test(`axe: the chat and the setup states in the ${theme.name} theme have no serious or critical violation`, async () => {
		await step(session.page, `accessibility-${theme.name}`, async () => {
			let frame = await useTheme(session.page, theme);
			frame = await useBinary(session.page, FAKE_ZERO, 'ready');
			await frame.locator('.permission-notice .notice-details').waitFor();
			const found: Violation[] = [];
			found.push(...(await axe(frame, `${theme.name}-chat`)));
			await screenshot(session.page, `axe-${theme.name}-chat`);
			frame = await useBinary(session.page, `${FAKE_ZERO}-no-api-key`, 'no_provider');
			assert.match(
				await frame.locator('[data-setup-state="no_provider"]').innerText(),
				/Connect a model provider[\s\S]*requires API key; set OPENAI_API_KEY/,
			);
			found.push(...(await axe(frame, `${theme.name}-no-provider`)));
			await screenshot(session.page, `axe-${theme.name}-no-provider`);
			frame = await useBinary(session.page, path.join(FAKE_ZERO, 'missing'), 'not_found');
			found.push(...(await axe(frame, `${theme.name}-not-found`)));
			assert.deepEqual(serious(found), [], describeViolations(serious(found)));
			await useBinary(session.page, FAKE_ZERO, 'ready');
		});
	});
}
