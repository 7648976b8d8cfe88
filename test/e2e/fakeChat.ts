/** Shared steps for e2e tests that chat with the FAKE zero in code-server. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { repoRoot } from '../harness/codeServer';
import { startZeroWorkbench, type ZeroWorkbench, type ZeroWorkbenchOptions } from '../harness/e2e';
import { executeCommand, findWebviewFrame, openZeroView } from '../harness/workbench';
import { waitUntil } from '../harness/wait';
import { suiteFixture } from '../harness/suiteSession';

export {
	changeCard,
	chooseMode,
	pickMention,
	reloadWindow,
	send,
	step,
	timer,
	waitForRunEnd,
} from '../harness/chatSteps';
export { waitUntil };

export const FAKE_ZERO = path.join(repoRoot, 'test', 'fixtures', 'fake-zero', 'zero');

export interface FakeChatSession {
	wb: ZeroWorkbench;
	page: Page;
	recordDir: string;
	stateDir: string;
	/** `zero exec` invocations of the fake, oldest first. */
	execRecords(): { argv: string[]; stdin: string }[];
	chat(): Promise<Frame>;
	/** "Zero: New Chat" (through the test driver); resolves with the chat frame once it is empty. */
	newChat(): Promise<Frame>;
	close(): Promise<void>;
}

export async function startFakeChat(
	name: string,
	extraEnv: Record<string, string> = {},
	settings: Record<string, unknown> = {},
	workbench: Pick<ZeroWorkbenchOptions, 'workspaceFolders'> = {},
): Promise<FakeChatSession> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), `zero-e2e-${name}-`));
	const recordDir = path.join(root, 'records');
	const stateDir = path.join(root, 'state');
	const wb = await startZeroWorkbench({
		...workbench,
		name,
		settings: {
			'zero.path': FAKE_ZERO,
			'zero.env': { FAKE_ZERO_RECORD_DIR: recordDir, FAKE_ZERO_STATE_DIR: stateDir, ...extraEnv },
			...settings,
		},
	});
	const chat = async (): Promise<Frame> => {
		const frame = await findWebviewFrame(wb.page, '#app[data-state="ready"]', 60_000);
		return frame;
	};
	await openZeroView(wb.page);
	return {
		wb,
		page: wb.page,
		recordDir,
		stateDir,
		chat,
		newChat: async () => {
			await executeCommand(wb.page, 'zero.newChat');
			const frame = await chat();
			await waitUntil(
				async () => (await frame.locator('[data-kind="prompt"]').count()) === 0,
				10_000,
				'an empty chat',
			);
			return frame;
		},
		execRecords: () =>
			fs.existsSync(recordDir)
				? fs
						.readdirSync(recordDir)
						.sort((a, b) => Number(a.split('-')[0]) - Number(b.split('-')[0]))
						.map((file) => JSON.parse(fs.readFileSync(path.join(recordDir, file), 'utf8')))
						.filter((record) => record.argv[0] === 'exec')
				: [],
		close: async () => {
			await wb.close();
			fs.rmSync(root, { recursive: true, force: true });
		},
	};
}

/**
 * The test file's one code-server with the FAKE zero, started before its first test and closed
 * after its last; the returned session forwards to the started one (see `realZeroSuite`).
 */
export function fakeChatSuite(
	...args: Parameters<typeof startFakeChat>
): FakeChatSession & { ready: Promise<void> } {
	return suiteFixture(args[0], () => startFakeChat(...args));
}

export function flag(argv: string[], name: string): string | undefined {
	return argv.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1);
}
