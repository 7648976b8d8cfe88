import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { readCliJson } from '../../../src/zero/protocol/cliAnswers';
import {
	CONTEXT_PART_KEYS,
	ZeroContextReportSchema,
	ZeroModelsSchema,
	ZeroSkillsSchema,
	findZeroModel,
	fixedContextTokens,
} from '../../../src/zero/protocol/composerFacts';
import { UsageEvent } from '../../../src/zero/protocol/events';

const recorded = path.join(__dirname, '..', '..', 'fixtures', 'recorded', 'composer');

function cliFixture(name: string): { stdout: string; stderr: string; exitCode: number } {
	return JSON.parse(readFileSync(path.join(recorded, 'cli', `${name}.json`), 'utf8')) as {
		stdout: string;
		stderr: string;
		exitCode: number;
	};
}

function read<T>(name: string, schema: Parameters<typeof readCliJson<T>>[1]): T {
	const answer = readCliJson(cliFixture(name), schema, name);
	assert.ok(answer.ok, answer.ok ? '' : answer.problem);
	return answer.value;
}

describe('zero models --json (recorded)', () => {
	it('reads every model with its window and output limit', () => {
		const raw = JSON.parse(cliFixture('models').stdout) as { models: unknown[] };
		const models = read('models', ZeroModelsSchema).models;
		assert.equal(models.skipped, 0);
		assert.equal(models.items.length, raw.models.length);
		const mini = findZeroModel(models.items, 'GPT-4.1-MINI');
		assert.ok(mini && mini.contextWindow > 100_000 && mini.maxOutputTokens > 0);
		assert.equal(findZeroModel(models.items, 'fake-model'), undefined, 'zero does not list it');
		assert.equal(findZeroModel(models.items, '  '), undefined);
	});

	it('skips one bad entry instead of the whole list', () => {
		const parsed = ZeroModelsSchema.parse({
			models: [
				{ id: 'a', contextWindow: 10, maxOutputTokens: 1 },
				{ id: 'b', contextWindow: -1 },
				7,
			],
		});
		assert.deepEqual(
			parsed.models.items.map((m) => m.id),
			['a'],
		);
		assert.equal(parsed.models.skipped, 2);
	});
});

describe('zero skills list --json (recorded)', () => {
	it('is an empty list without skills', () => {
		assert.deepEqual(read('skills-empty', ZeroSkillsSchema).skills, { items: [], skipped: 0 });
	});

	it('lists an installed skill by name and description, without its body', () => {
		const skills = read('skills-one', ZeroSkillsSchema).skills.items;
		assert.deepEqual(
			skills.map((s) => [s.name, s.description]),
			[['changelog', 'Write a Keep a Changelog entry']],
		);
		assert.equal('content' in skills[0], false);
	});
});

describe('zero context --json (recorded)', () => {
	it('says window 0 for a model zero does not list, and counts the fixed parts', () => {
		const report = read('context-unknown-model', ZeroContextReportSchema);
		assert.equal(report.contextWindow, 0);
		const keys = report.categories.items.map((c) => c.key);
		assert.deepEqual(keys, ['system_prompt', 'workspace_map', 'tools', 'free']);
		assert.ok(keys.every((key) => (CONTEXT_PART_KEYS as readonly string[]).includes(key)));
		assert.equal(
			fixedContextTokens(report),
			report.usedTokens,
			'usedTokens is every part but free',
		);
		assert.ok(report.usedTokens > 1000);
	});

	it("gives a listed model's window, the same as zero models --json", () => {
		const report = read('context-known-model', ZeroContextReportSchema);
		const models = read('models', ZeroModelsSchema).models.items;
		assert.equal(report.contextWindow, findZeroModel(models, report.modelId)?.contextWindow);
		assert.equal(fixedContextTokens(report), report.usedTokens);
	});

	it('counts an AGENTS.md as project guidelines', () => {
		const report = read('context-project-guidelines', ZeroContextReportSchema);
		assert.equal(report.projectGuidelineFile, 'AGENTS.md');
		assert.ok(report.categories.items.some((c) => c.key === 'project_guidelines' && c.tokens > 0));
		assert.equal(fixedContextTokens(report), report.usedTokens);
	});
});

describe('stream-json usage (recorded)', () => {
	function usageEvents(name: string) {
		return readFileSync(path.join(recorded, 'turns', `${name}.jsonl`), 'utf8')
			.split('\n')
			.filter((line) => line.includes('"type":"usage"'))
			.map((line) => UsageEvent.parse(JSON.parse(line)));
	}

	it('is one event per model request, not cumulative, without cached tokens or cost', () => {
		const events = usageEvents('usage-two-requests');
		assert.deepEqual(
			events.map((e) => [e.promptTokens, e.completionTokens, e.totalTokens]),
			[
				[5000, 40, 5040],
				[5200, 12, 5212],
			],
		);
		// The server sent cached_tokens 4096 and 4900: zero exec keeps none of it.
		assert.ok(events.every((e) => e.costUsd === undefined && !JSON.stringify(e).includes('ache')));
	});

	it('is absent when the provider sends no usage', () => {
		assert.deepEqual(usageEvents('usage-none'), []);
	});
});
