/**
 * The composer's meter on the host, from zero v0.8.0's recorded answers
 * (test/fixtures/recorded/composer/): `zero models --json`, `zero context --json` and the `usage`
 * of a turn with two requests.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import {
	ComposerFactsService,
	composerMeter,
	contextWindowFor,
} from '../../../../src/host/composer/composerMeter';
import { RECORDED, exited, replay } from '../../helpers';

const COMPOSER = path.join(RECORDED, 'composer');

function recordedCli(name: string): {
	found: true;
	exitCode: number;
	stdout: string;
	stderr: string;
} {
	const recorded = JSON.parse(readFileSync(path.join(COMPOSER, 'cli', `${name}.json`), 'utf8'));
	return {
		found: true,
		exitCode: recorded.exitCode,
		stdout: recorded.stdout,
		stderr: recorded.stderr,
	};
}

async function factsFrom(contextFile: string) {
	const asked: string[][] = [];
	const service = new ComposerFactsService(
		async (args) => {
			asked.push([...args]);
			return args[0] === 'models'
				? recordedCli('models')
				: args[0] === 'skills'
					? recordedCli('skills-one')
					: recordedCli(contextFile);
		},
		(message) => assert.fail(message),
	);
	await service.refresh('/ws');
	return { facts: service.current('/ws'), asked };
}

describe('composer meter (host)', () => {
	it('asks zero models --json and zero context --json, and reads both', async () => {
		const { facts, asked } = await factsFrom('context-known-model');
		assert.deepEqual(asked, [
			['models', '--json'],
			['context', '--json'],
			['skills', 'list', '--json'],
		]);
		assert.deepEqual(
			facts.skills?.map((skill) => skill.name),
			['changelog'],
		);
		assert.ok(facts.models.length > 5);
		assert.equal(facts.context?.modelId, 'gpt-4.1-mini');
	});

	it("the window: a listed model's contextWindow; the configured model's from zero context; else unknown", async () => {
		const known = (await factsFrom('context-known-model')).facts;
		assert.deepEqual(contextWindowFor(known, 'claude-haiku-4.5'), {
			modelId: 'claude-haiku-4.5',
			window: 200000,
		});
		assert.deepEqual(contextWindowFor(known, ''), { modelId: 'gpt-4.1-mini', window: 1047576 });
		const unknown = (await factsFrom('context-unknown-model')).facts;
		// zero does not list the scripted provider's fake-model: window 0 in zero context.
		assert.deepEqual(contextWindowFor(unknown, 'fake-model'), { modelId: 'fake-model' });
		assert.deepEqual(contextWindowFor(unknown, ''), { modelId: 'fake-model' });
	});

	it('the last request of the last turn against the window, with the fixed part in the tooltip', async () => {
		const { facts } = await factsFrom('context-known-model');
		const transcript = replay(path.join(COMPOSER, 'turns', 'usage-two-requests.jsonl'), exited(0));
		// The run reported fake-model, which zero does not list: the run's model wins over the chat's.
		assert.equal(
			composerMeter(transcript, 'claude-haiku-4.5', 'exec', facts).label,
			'5.2k, window unknown',
		);
		// The same usage from a run of a listed model.
		const run = transcript.turns[0].run;
		assert.ok(run);
		run.model = 'claude-haiku-4.5';
		const meter = composerMeter(transcript, '', 'exec', facts);
		// The two requests reported 5000 then 5200 prompt tokens: the meter shows the latest.
		assert.equal(meter.label, '5.2k / 200k (3%)');
		assert.equal(meter.level, 'normal');
		assert.ok(
			meter.tooltip.includes('Last request: 5.2k tokens in, 12 out.'),
			meter.tooltip.join('|'),
		);
		assert.ok(
			meter.tooltip.includes('Last turn: 2 requests, 10.2k in, 52 out.'),
			meter.tooltip.join('|'),
		);
		assert.ok(
			meter.tooltip.some((line) =>
				/^Fixed part of every request \(zero context --json.*7k\.$/.test(line),
			),
			meter.tooltip.join('|'),
		);
	});

	it('another model chosen after a run: its window at once, not after the next turn (#36)', async () => {
		const { facts } = await factsFrom('context-unknown-model');
		const known = (await factsFrom('context-known-model')).facts;
		const transcript = replay(path.join(COMPOSER, 'turns', 'usage-two-requests.jsonl'), exited(0));
		transcript.turns[0].command = {
			kind: 'chat',
			display: 'zero exec',
			permissionMode: 'member',
			model: 'fake-model',
		};
		// The run's fake-model is not listed: window unknown while it is still the chat's model.
		assert.equal(
			composerMeter(transcript, 'fake-model', 'exec', facts).label,
			'5.2k, window unknown',
		);
		// Chosen since: the chosen model's window, with the context the chat has now.
		assert.equal(
			composerMeter(transcript, 'claude-haiku-4.5', 'exec', known).label,
			'5.2k / 200k (3%)',
		);
		// Back to zero's configured model: its window from zero context.
		assert.equal(composerMeter(transcript, '', 'exec', known).label, '5.2k / 1.05M (0%)');
	});

	it('before any request, and in an ACP chat', async () => {
		const { facts } = await factsFrom('context-known-model');
		const empty = replay(path.join(COMPOSER, 'turns', 'usage-none.jsonl'), exited(0));
		// The run's fake-model is not listed.
		assert.equal(composerMeter(empty, '', 'exec', facts).label, 'window unknown');
		empty.turns = [];
		const before = composerMeter(empty, '', 'exec', facts);
		assert.equal(before.label, '0 / 1.05M');
		assert.equal(before.level, 'none');
		const acp = composerMeter(empty, '', 'acp', facts);
		assert.equal(acp.label, 'no token usage');
		assert.deepEqual(acp.tooltip, [
			'zero acp reports no token usage, so the context in use is not known.',
		]);
	});

	it('an answer zero cannot give leaves the facts empty, with a warning', async () => {
		const warnings: string[] = [];
		const service = new ComposerFactsService(
			async () => ({ found: true, exitCode: 0, stdout: 'not json', stderr: '' }),
			(message) => warnings.push(message),
		);
		await service.refresh(undefined);
		assert.deepEqual(service.current(undefined), { models: [], commands: [], skippedCommands: [] });
		assert.equal(warnings.length, 2);
	});
});
