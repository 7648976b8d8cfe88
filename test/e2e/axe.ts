/** axe-core over a webview's document, and the three themes the accessibility checks run in. */
import fs from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { testOutputDir } from '../harness/codeServer';
import { waitUntil } from '../harness/wait';

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const THEMES = [
	{ name: 'light', id: 'Default Light Modern', bodyClass: 'vscode-light' },
	{ name: 'dark', id: 'Default Dark Modern', bodyClass: 'vscode-dark' },
	{ name: 'high-contrast', id: 'Default High Contrast', bodyClass: 'vscode-high-contrast' },
] as const;

/** Waits until the chat view (as `chat()` finds it) is drawn in `theme`. */
export async function inTheme(
	chat: () => Promise<Frame>,
	theme: (typeof THEMES)[number],
): Promise<void> {
	await waitUntil(
		async () =>
			(await chat()).evaluate((name) => document.body.classList.contains(name), theme.bodyClass),
		30_000,
		`the chat view in the ${theme.name} theme`,
	);
}

export interface Violation {
	id: string;
	impact: string | null;
	help: string;
	nodes: { target: string; html: string; summary: string }[];
}

/** Runs axe-core in the webview's document; returns every violation (and saves them). */
export async function axe(frame: Frame, label: string): Promise<Violation[]> {
	// Evaluated through the debugger protocol, which the webview's script CSP does not restrict.
	if (!(await frame.evaluate(() => 'axe' in window))) {
		await frame.evaluate(AXE_SOURCE);
	}
	const violations = await frame.evaluate(async () => {
		interface AxeNode {
			target: unknown[];
			html: string;
			failureSummary?: string;
			any?: { data?: { messageKey?: string } | null }[];
		}
		interface AxeRule {
			id: string;
			impact: string | null;
			help: string;
			nodes: AxeNode[];
		}
		const run = (
			window as unknown as {
				axe: {
					run(
						context: Document,
						options: object,
					): Promise<{ violations: AxeRule[]; incomplete: AxeRule[] }>;
				};
			}
		).axe.run;
		const result = await run(document, { resultTypes: ['violations', 'incomplete'] });
		const describe = (rule: AxeRule, nodes: AxeNode[], id = rule.id, impact = rule.impact) => ({
			id,
			impact,
			help: rule.help,
			nodes: nodes.map((node) => ({
				target: node.target.join(' '),
				html: node.html.slice(0, 200),
				summary: node.failureSummary ?? '',
			})),
		});
		// axe leaves text in the colour of its background "incomplete" (it may be hidden on
		// purpose); in a chat it is text nobody can read, so it counts as a serious violation.
		const invisible = result.incomplete
			.filter((rule) => rule.id === 'color-contrast')
			.map((rule) => ({
				rule,
				nodes: rule.nodes.filter((node) =>
					(node.any ?? []).some((check) => check.data?.messageKey === 'equalRatio'),
				),
			}))
			.filter(({ nodes }) => nodes.length > 0)
			.map(({ rule, nodes }) => describe(rule, nodes, 'color-contrast-equal', 'serious'));
		return [...result.violations.map((rule) => describe(rule, rule.nodes)), ...invisible];
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

export function serious(violations: Violation[]): Violation[] {
	return violations.filter(
		(violation) => violation.impact === 'serious' || violation.impact === 'critical',
	);
}

export function describeViolations(violations: Violation[]): string {
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

/**
 * axe over a webview that runs no script (the inspection report): its document, with the theme's
 * colours VS Code put on it and its stylesheet inlined, is copied into a scratch page of the same
 * browser, where axe can run. The copy is taken through Playwright's own utility world.
 */
export async function axeScriptless(
	frame: Frame,
	stylesheet: string,
	label: string,
): Promise<Violation[]> {
	// Read through locators (Playwright's utility world): the page's own world runs no script.
	const root = frame.locator('html');
	const attribute = async (name: string) =>
		((await root.getAttribute(name)) ?? '').replace(/&/g, '&amp;').replace(/"/g, '&quot;');
	const html =
		`<!DOCTYPE html><html lang="${await attribute('lang')}" style="${await attribute('style')}" class="${await attribute('class')}">${await root.innerHTML()}</html>`
			.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/i, '')
			.replace(/<link rel="stylesheet"[^>]*>/i, () => `<style>${stylesheet}</style>`);
	const dir = path.join(testOutputDir, 'axe');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, `${label}.html`), html);
	const browser = frame.page().context().browser();
	if (!browser) {
		throw new Error('no browser to open a scratch page in');
	}
	const context = await browser.newContext();
	try {
		const scratch = await context.newPage();
		await scratch.setContent(html);
		// tsx names the functions passed to evaluate with a helper the workbench's pages happen
		// to define; a blank page needs it too.
		await scratch.evaluate('window.__name = (fn) => fn');
		return await axe(scratch.mainFrame(), label);
	} finally {
		await context.close();
	}
}
