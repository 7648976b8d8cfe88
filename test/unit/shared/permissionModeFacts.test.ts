/**
 * The Mode menu says what zero v0.8.0 does in each mode: its facts are checked against the real
 * binary's answers (`test/fixtures/recorded/p14-mode-*`, recordModeMatrix.ts), and its words are
 * made from those facts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
	MODE_FACTS,
	PERMISSION_MODE_INFO,
	explainModeFacts,
	type ModeAnswer,
	type ModeFacts,
} from '../../../src/shared/permissionModes';
import { RUN_PERMISSION_MODES } from '../../../src/zero/protocol/permissionModes';

const RECORDED = path.join(__dirname, '..', '..', 'fixtures', 'recorded');

interface Event {
	type: string;
	name?: string;
	status?: string;
	output?: string;
	action?: string;
}

function recorded(mode: string): { tools: string[]; events: Event[] } {
	const meta = JSON.parse(
		fs.readFileSync(path.join(RECORDED, `p14-mode-${mode}.meta.json`), 'utf8'),
	) as { modelRequests: { tools: string[] }[] };
	const events = fs
		.readFileSync(path.join(RECORDED, `p14-mode-${mode}.jsonl`), 'utf8')
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as Event);
	return { tools: meta.modelRequests[0].tools, events };
}

/** What zero did with the call to `tool`, read from its permission event and its result. */
function answerTo(events: Event[], tool: string): ModeAnswer {
	const result = events.find((event) => event.type === 'tool_result' && event.name === tool);
	const permission = events.find(
		(event) => event.type.startsWith('permission_') && event.name === tool,
	);
	assert.ok(result, `a result of ${tool}`);
	if (/is not available in [a-z-]+ mode/.test(result.output ?? '')) {
		return 'refused';
	}
	if (permission?.action === 'prompt') {
		return 'needs-approval';
	}
	assert.equal(permission?.action, 'allow', `${tool}: ${result.output}`);
	return 'allowed';
}

function recordedFacts(mode: string): ModeFacts {
	const { tools, events } = recorded(mode);
	return {
		offersWrites: tools.includes('write_file'),
		offersShell: tools.includes('exec_command'),
		workspaceWrite: answerTo(events, 'write_file'),
		shell: answerTo(events, 'exec_command'),
		network: answerTo(events, 'web_fetch'),
	};
}

describe('permission modes as zero v0.8.0 answers them', () => {
	for (const mode of [...RUN_PERMISSION_MODES, 'spec-draft'] as const) {
		it(`${mode}: the facts the menu is made from are the recorded ones`, () => {
			assert.deepEqual(MODE_FACTS[mode], recordedFacts(mode));
		});
	}

	for (const mode of RUN_PERMISSION_MODES) {
		it(`${mode}: the menu's words say what zero did (written, run, refused)`, () => {
			const facts = recordedFacts(mode);
			const words = PERMISSION_MODE_INFO[mode].explanation;
			assert.ok(words.includes(explainModeFacts(facts)), words);
			if (facts.workspaceWrite === 'allowed') {
				assert.match(words, /inside the workspace (is|are) allowed/);
				assert.doesNotMatch(words, /every write .*refused/);
			} else {
				assert.match(words, /every write and command is refused/);
			}
			if (facts.shell === 'needs-approval') {
				assert.match(words, /only inside zero\u2019s native sandbox/);
			}
			if (facts.network === 'needs-approval') {
				assert.match(words, /needing approval .* is refused \(zero exec cannot ask\)/);
			}
			if (facts.shell === 'allowed') {
				assert.match(words, /run without asking/);
			}
		});
	}

	it('ask: zero exec treats it like member (same tools offered, same answers)', () => {
		assert.deepEqual(recordedFacts('ask'), recordedFacts('member'));
		assert.deepEqual(recorded('ask').tools, recorded('member').tools);
		assert.match(PERMISSION_MODE_INFO.ask.explanation, /treats this mode like Member/);
	});

	it('package.json describes the setting with the same words', () => {
		const manifest = JSON.parse(
			fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
		) as {
			contributes: {
				configuration: {
					properties: Record<string, { enum?: string[]; enumDescriptions?: string[] }>;
				};
			};
		};
		const setting = manifest.contributes.configuration.properties['zero.permissionMode'];
		assert.deepEqual(
			setting.enumDescriptions,
			(setting.enum ?? []).map(
				(mode) => PERMISSION_MODE_INFO[mode as keyof typeof PERMISSION_MODE_INFO].explanation,
			),
		);
	});
});
