/**
 * `zero providers check --json [--connectivity]` in every setup state, as the real zero v0.8.0
 * answered (test/fixtures/recorded/readiness/).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readProviderCheck, type ProviderState } from '../../../src/zero/protocol/providerCheck';
import { RECORDED } from '../helpers';

describe('zero providers check: the setup states', () => {
	const READINESS = path.join(RECORDED, 'readiness');
	function answer(home: string, slug: string) {
		const file = (suffix: string): string => path.join(READINESS, home, `${slug}.${suffix}.txt`);
		const index = JSON.parse(readFileSync(path.join(READINESS, 'index.json'), 'utf8')) as {
			entries: { file: string; exitCode: number | null }[];
		};
		const entry = index.entries.find(
			(candidate) => candidate.file === `${home}/${slug}.stdout.txt`,
		);
		assert.ok(entry, `${home}/${slug}`);
		return {
			exitCode: entry.exitCode,
			stdout: readFileSync(file('stdout'), 'utf8'),
			stderr: existsSync(file('stderr')) ? readFileSync(file('stderr'), 'utf8') : '',
		};
	}

	const cases: [string, string, ProviderState][] = [
		['no-provider', 'providers_check_json', 'no-provider'],
		['no-api-key-openai', 'providers_check_json', 'missing-key'],
		['no-api-key-openai', 'providers_check_json_connectivity', 'missing-key'],
		['no-api-key-compatible', 'providers_check_json', 'missing-key'],
		// An OpenAI-compatible server that needs no key: only --connectivity says it works.
		['no-api-key-compatible', 'providers_check_json_connectivity', 'ready'],
		['fake-server', 'providers_check_json', 'ready'],
		['fake-server', 'providers_check_json_connectivity', 'ready'],
		// A rejected key passes the offline check; only --connectivity sees the 401.
		['key-rejected', 'providers_check_json', 'ready'],
		['key-rejected', 'providers_check_json_connectivity', 'key-rejected'],
		['server-down', 'providers_check_json_connectivity', 'unreachable'],
	];
	for (const [home, slug, state] of cases) {
		it(`${home}: ${slug.replace(/_/g, ' ')} -> ${state}`, () => {
			assert.equal(readProviderCheck(answer(home, slug)).state, state);
		});
	}

	it('providers current --json says "ok" with no API key', () => {
		const current = JSON.parse(
			readFileSync(
				path.join(READINESS, 'no-api-key-openai', 'providers_current_json.stdout.txt'),
				'utf8',
			),
		) as { provider: { status: string; apiKeySet: boolean } };
		assert.deepEqual([current.provider.status, current.provider.apiKeySet], ['ok', false]);
	});
});
