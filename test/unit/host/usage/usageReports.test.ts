import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { formatUsd, usageMarkdown } from '../../../../src/host/usage/usageMarkdown';
import { UsageReports, type UsageDeps } from '../../../../src/host/usage/usageReports';
import { RECORDED } from '../../helpers';

const recordedReport = readFileSync(path.join(RECORDED, 'tools', 'usage-session.json'), 'utf8');

function world(sessions: string[]) {
	const runs: string[][] = [];
	const shown: { name: string; markdown: string }[] = [];
	const messages: string[] = [];
	const deps: UsageDeps = {
		run: async (args) => {
			runs.push([...args]);
			return { found: true, exitCode: 0, stdout: recordedReport, stderr: '' };
		},
		prompts: {
			confirm: async () => false,
			choose: async () => undefined,
			pick: async () => undefined,
		},
		messages: { show: (_level, message) => messages.push(message) },
		chat: () => ({ sessionId: sessions[0], folder: '/ws', title: 'A chat' }),
		folderSessions: async () => sessions,
		show: async (name, markdown) => {
			shown.push({ name, markdown });
		},
	};
	return { usage: new UsageReports(deps), runs, shown, messages };
}

describe('usage reports', () => {
	it("shows zero's report of the chat's session in zero's words, cost as an estimate", async () => {
		const { usage, runs, shown } = world(['s1']);
		const report = await usage.show('chat');
		assert.deepEqual(runs, [['usage', 'report', '--json', '--session', 's1']]);
		assert.equal(report?.total.totalTokens, 9699);
		assert.match(shown[0].markdown, /Usage report \(cost is a reconstructed estimate\)/);
		assert.match(
			shown[0].markdown,
			/\| \*\*total\*\* \| 5 \| 9,600 \| 99 \| 9,699 \| \$0\.0000 \|/,
		);
	});

	it("adds up the folder's sessions, one report each, and says zero has no folder filter", async () => {
		const { usage, runs, shown } = world(['s1', 's2']);
		const report = await usage.show('folder');
		assert.equal(runs.length, 2);
		assert.equal(report?.total.totalTokens, 2 * 9699);
		assert.match(shown[0].markdown, /no folder filter/);
	});

	it('says so when the chat has no session yet, and runs nothing', async () => {
		const { usage, runs, messages } = world([]);
		assert.equal(await usage.show('chat'), undefined);
		assert.deepEqual(runs, []);
		assert.match(messages[0], /no zero session yet/);
	});

	it("formats cost as zero does and keeps a hostile command out of the table's code span", () => {
		assert.equal(formatUsd(0), '$0.0000');
		assert.equal(formatUsd(0.001234), '$0.001234');
		assert.equal(formatUsd(1.5), '$1.5000');
		assert.equal(formatUsd(Number.NaN), '$0.0000');
		const total = { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, totalCost: 0 };
		const markdown = usageMarkdown([
			{
				title: 't',
				commands: ['zero `x`'],
				report: {
					buckets: [],
					total,
					netLOC: 0,
					tokensPerNetLOC: 0,
					costPerNetLOC: 0,
					locEstimated: true,
					costEstimated: true,
				},
			},
		]);
		assert.match(markdown, /`zero 'x'`/);
		assert.match(markdown, /zero recorded no model requests here/);
	});
});
