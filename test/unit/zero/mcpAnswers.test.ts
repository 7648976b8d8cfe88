import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	describeMcpChange,
	mcpArgs,
	mcpServerTarget,
	readMcpChange,
	readMcpCheck,
	readMcpList,
	readMcpTools,
	validMcpServerName,
} from '../../../src/zero/protocol/mcpAnswers';
import { readUsageReport, usageReportArgs } from '../../../src/zero/protocol/usageReport';
import { RECORDED } from '../helpers';

const TOOLS = path.join(RECORDED, 'tools');
interface Step {
	name: string;
	argv: string[];
	exitCode: number;
	stderr: string;
	file: string;
}
const index = JSON.parse(readFileSync(path.join(TOOLS, 'index.json'), 'utf8')) as {
	session: string;
	steps: Step[];
};
function recorded(name: string) {
	const step = index.steps.find((s) => s.name === name);
	assert.ok(step, name);
	return {
		step,
		result: {
			exitCode: step.exitCode,
			stdout: readFileSync(path.join(TOOLS, step.file), 'utf8'),
			stderr: step.stderr,
		},
	};
}

describe('zero mcp answers (recorded from zero v0.8.0)', () => {
	it('builds the argument lists zero was recorded with', () => {
		assert.deepEqual(recorded('mcp list with the fixture').step.argv.slice(1), mcpArgs.list());
		assert.deepEqual(recorded('mcp tools list').step.argv.slice(1), mcpArgs.tools());
		assert.deepEqual(recorded('mcp check fixture').step.argv.slice(1), mcpArgs.check('fixture'));
		assert.deepEqual(
			recorded('mcp disable fixture').step.argv.slice(1),
			mcpArgs.disable('fixture'),
		);
		assert.deepEqual(recorded('mcp enable fixture').step.argv.slice(1), mcpArgs.enable('fixture'));
		assert.deepEqual(recorded('mcp remove fixture').step.argv.slice(1), mcpArgs.remove('fixture'));
		assert.deepEqual(
			recorded('mcp add the stdio fixture').step.argv.slice(1),
			mcpArgs.addStdio('fixture', ['node', '$REPO/test/fixtures/mcp/echoServer.mjs']),
		);
	});

	it('lists the built-in exa and the added stdio server with their state', () => {
		const start = readMcpList(recorded('mcp list, exa disabled by the hermetic config').result);
		assert.ok(start.ok);
		assert.deepEqual(
			start.value.map((e) => [e.name, e.server.type, e.server.disabled]),
			[['exa', 'http', true]],
		);
		const disabled = readMcpList(recorded('mcp list, fixture disabled').result);
		assert.ok(disabled.ok);
		const fixture = disabled.value.find((e) => e.name === 'fixture');
		assert.equal(fixture?.server.disabled, true);
		assert.equal(mcpServerTarget(fixture!.server), 'node $REPO/test/fixtures/mcp/echoServer.mjs');
		assert.equal(mcpServerTarget(start.value[0].server), 'https://mcp.exa.ai/mcp');
	});

	it('reads tools, and the tools of a disabled server disappear', () => {
		const enabled = readMcpTools(recorded('mcp tools list').result);
		assert.ok(enabled.ok);
		assert.deepEqual(
			enabled.value.map((t) => [t.name, t.permission, t.sideEffect]),
			[['mcp_fixture_echo', 'prompt', 'network']],
		);
		const disabled = readMcpTools(recorded('mcp tools list, fixture disabled').result);
		assert.deepEqual(disabled, { ok: true, value: [] });
		const check = readMcpCheck(recorded('mcp check fixture').result, 'fixture');
		assert.ok(check.ok && check.value.length === 1);
		assert.deepEqual(readMcpCheck(recorded('mcp check a disabled server').result, 'fixture'), {
			ok: false,
			problem: 'zero mcp check fixture: MCP server "fixture" is disabled',
		});
	});

	it('says what enable, disable and remove did, and what zero refused', () => {
		const say = (name: string) => {
			const answer = readMcpChange(recorded(name).result, 'zero mcp');
			return answer.ok ? describeMcpChange(answer.value) : answer.problem;
		};
		assert.match(say('mcp disable fixture'), /^The MCP server fixture is now disabled in \$ROOT/);
		assert.match(say('mcp disable fixture again'), /was already disabled/);
		assert.match(say('mcp enable fixture'), /is now enabled/);
		assert.match(say('mcp remove fixture'), /^Removed the MCP server fixture/);
		assert.match(say('mcp remove fixture again'), /nothing was removed/);
		assert.match(say('mcp add the stdio fixture'), /^Added the MCP server fixture/);
		assert.equal(
			say('mcp enable an unknown server'),
			'zero mcp: MCP server nosuch is not configured in user config',
		);
	});

	it("the next run follows: an enabled server's tool is offered (in unsafe mode), a disabled one's is not", () => {
		assert.match(
			recorded('exec --list-tools unsafe, fixture enabled').result.stdout,
			/mcp_fixture_echo/,
		);
		assert.doesNotMatch(
			recorded('exec --list-tools unsafe, fixture disabled').result.stdout,
			/mcp_fixture_echo/,
		);
		// Member mode (the default) never offers it: its permission is "prompt".
		assert.doesNotMatch(
			recorded('exec --list-tools, fixture enabled').result.stdout,
			/mcp_fixture_echo/,
		);
	});

	it('accepts only server names that are safe on a command line', () => {
		assert.equal(validMcpServerName('fixture-1'), undefined);
		for (const bad of ['', '-x', 'a b', 'a;rm', '../x', 'x'.repeat(65)]) {
			assert.ok(validMcpServerName(bad), bad);
		}
	});
});

describe('zero usage report (recorded from zero v0.8.0)', () => {
	it("reads the chat's session and the last days, with zero's estimate flags", () => {
		const session = recorded('usage of the session');
		assert.deepEqual(
			session.step.argv.slice(1),
			usageReportArgs({ kind: 'session', sessionId: index.session }),
		);
		const report = readUsageReport(session.result);
		assert.ok(report.ok);
		// The three recorded turns: 1500+1700, 2000+2100, 2300 prompt tokens over five requests.
		assert.deepEqual(
			[
				report.value.total.requests,
				report.value.total.inputTokens,
				report.value.total.outputTokens,
			],
			[5, 9600, 99],
		);
		assert.equal(report.value.costEstimated, true);
		const days = recorded('usage of the last 7 days');
		assert.deepEqual(days.step.argv.slice(1), usageReportArgs({ kind: 'days', days: 7 }));
		const unknown = readUsageReport(recorded('usage of an unknown session').result);
		assert.ok(unknown.ok && unknown.value.total.requests === 0);
	});
});
