/**
 * What a live-approvals chat leaves running, read from the process table (/proc), not from the
 * extension's own bookkeeping: after Stop while zero waits for an answer (zero ignoring the
 * cancel) and after `zero acp` crashes mid-turn, neither the agent nor a command it started is
 * left, nor anything else in the agent's session. Packaged extension in code-server, FAKE
 * `zero acp` (test/fixtures/fake-acp), which starts its tool command in a process group of its
 * own, as zero v0.8.0 does (Setpgid).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { screenshot } from '../harness/workbench';
import { processTable, type ProcessRow } from '../harness/processTable';
import * as fakeChat from './fakeChat';
import { scratchFolder } from '../harness/scratchFolder';

const root = scratchFolder('zero-e2e-acp-life-');
const agentPids = path.join(root, 'agents');
const toolPids = path.join(root, 'tools');

let frame: Frame;

function pidsIn(file: string): number[] {
	return fs.existsSync(file)
		? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number)
		: [];
}

/** Every live process (zombies left out: they run nothing). */
function liveProcesses(): ProcessRow[] {
	return processTable().filter((row) => row.state !== 'Z');
}

/** What is still running of these agents: themselves, their tool commands, their sessions. */
function leftOf(agents: number[], tools: number[]): ProcessRow[] {
	return liveProcesses().filter(
		(row) => agents.includes(row.pid) || tools.includes(row.pid) || agents.includes(row.session),
	);
}

const session = fakeChat.fakeChatSuite('acp-lifecycle', {
	FAKE_ACP_SELF_PID_FILE: agentPids,
	FAKE_ACP_PID_FILE: toolPids,
});

before(async () => {
	await session.ready;
	frame = await session.chat();
});

async function newAcpChat(): Promise<void> {
	frame = await session.newChat();
	await fakeChat.chooseMode(frame, 'acp');
}

/** The agent that is running now, and the tool command it started for this turn. */
async function runningAgentAndTool(known: { agents: number; tools: number }) {
	await fakeChat.waitUntil(
		() => pidsIn(toolPids).length > known.tools && pidsIn(agentPids).length > known.agents,
		20_000,
		'the FAKE agent and its tool command to be running',
	);
	const agent = pidsIn(agentPids).at(-1) as number;
	const tool = pidsIn(toolPids).at(-1) as number;
	const toolRow = () => liveProcesses().find((row) => row.pid === tool);
	// perl moves it into its own process group, then becomes `sleep 600`.
	await fakeChat.waitUntil(
		() => /^sleep 600/.test(toolRow()?.cmdline ?? ''),
		20_000,
		'sleep 600 to run',
		{
			seen: toolRow,
		},
	);
	assert.equal(toolRow()?.session, agent, "the tool command is in the agent's session");
	return { agent, tool };
}

test('Stop while zero waits for an answer, zero ignoring the cancel: the turn ends stopped and nothing of that zero acp is left', async () => {
	await fakeChat.step(session.page, 'acp-lifecycle-stop', async () => {
		await newAcpChat();
		const known = { agents: pidsIn(agentPids).length, tools: pidsIn(toolPids).length };
		await fakeChat.send(frame, 'Clean up [scenario:stop-ignored]');
		const approval = frame.locator('[data-kind="tool"] .approval[data-approval="waiting"]').last();
		await approval.waitFor({ state: 'visible', timeout: 20_000 });
		const { agent, tool } = await runningAgentAndTool(known);
		await frame.locator('button.stop').click();
		// zero never answers: the grace period after session/cancel ends the turn.
		const status = await fakeChat.waitForRunEnd(frame, 'Clean up', 60_000);
		assert.equal(await status.getAttribute('data-status'), 'interrupted');
		await fakeChat.waitUntil(() => leftOf([agent], [tool]).length === 0, 20_000, 'nothing left', {
			seen: () => leftOf([agent], [tool]),
		});
		await screenshot(session.page, 'acp-lifecycle-1-stopped');
	});
});

test('zero acp crashes mid-turn: the chat says so and neither the agent nor its tool command is left', async () => {
	await fakeChat.step(session.page, 'acp-lifecycle-crash', async () => {
		await newAcpChat();
		const known = { agents: pidsIn(agentPids).length, tools: pidsIn(toolPids).length };
		await fakeChat.send(frame, 'Crash now [scenario:crash]');
		const status = await fakeChat.waitForRunEnd(frame, 'Crash now', 60_000);
		assert.notEqual(await status.getAttribute('data-status'), 'success');
		assert.ok(pidsIn(agentPids).length > known.agents, 'a new agent started for this turn');
		assert.ok(pidsIn(toolPids).length > known.tools, 'the agent started its tool command');
		const agents = pidsIn(agentPids).slice(known.agents);
		const tools = pidsIn(toolPids).slice(known.tools);
		await fakeChat.waitUntil(() => leftOf(agents, tools).length === 0, 20_000, 'nothing left', {
			seen: () => leftOf(agents, tools),
		});
		await screenshot(session.page, 'acp-lifecycle-2-crashed');
	});
});
