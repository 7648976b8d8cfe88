/**
 * zero's stored sandbox grants, read from what the real zero v0.8.0 printed
 * (test/fixtures/recorded/permissions-cli/p13-*): every kind, the revoke each needs, and its count.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
	isGrantableToolName,
	parseGrantList,
	parseRevokeCount,
	removedByRevoke,
	revokeGrantArgs,
} from '../../../src/zero/protocol/grants';
import { RECORDED } from '../helpers';

const CLI_DIR = path.join(RECORDED, 'permissions-cli');

interface CliEntry {
	name: string;
	argv: string[];
	exitCode: number | null;
	placeholders?: Record<string, string>;
}

const CLI = JSON.parse(readFileSync(path.join(CLI_DIR, 'index.json'), 'utf8')) as CliEntry[];

function cli(name: string): { entry: CliEntry; stdout: string } {
	const entry = CLI.find((candidate) => candidate.name === name);
	assert.ok(entry, name);
	return { entry, stdout: readFileSync(path.join(CLI_DIR, `${name}.stdout.txt`), 'utf8') };
}

function withPlaceholders(args: string[], placeholders: Record<string, string> = {}): string[] {
	return args.map((arg) =>
		Object.entries(placeholders).reduce((out, [name, raw]) => out.split(raw).join(name), arg),
	);
}

describe('zero sandbox grants: every kind, and what revoke needs', () => {
	const list = parseGrantList(cli('p13-list-all').stdout);

	it('lists tool-wide, file, dir and host grants and command prefixes', () => {
		assert.ok(list);
		assert.deepEqual(
			list.grants.map((grant) => [grant.toolName, grant.scopeKind ?? '', grant.decision]),
			[
				['bash', '', 'allow'],
				['list_directory', 'dir', 'allow'],
				['mcp_fixture_echo', '', 'deny'],
				['web_fetch', 'host', 'allow'],
				['write_file', '', 'allow'],
				['write_file', 'file', 'deny'],
			],
		);
		assert.deepEqual(
			list.commandPrefixes?.map((prefix) => prefix.prefix),
			[['git', 'status']],
		);
		assert.equal(parseGrantList(cli('p13-list-after').stdout)?.commandPrefixes, undefined);
	});

	const cases: [string, string, string, number][] = [
		// [tool, scopeKind, recorded revoke, count zero reported]
		['web_fetch', 'host', 'p13-revoke-host-by-tool', 1],
		['list_directory', 'dir', 'p13-revoke-dir-by-scope', 1],
		['write_file', 'file', 'p13-revoke-file-by-scope', 1],
		['bash', '', 'p13-revoke-tool-wide', 2],
		['mcp_fixture_echo', '', 'p13-revoke-deny-mcp', 1],
	];
	for (const [tool, kind, recorded, count] of cases) {
		it(`revokes a ${kind || 'tool-wide'} grant of ${tool} with the recorded command, removing ${count}`, () => {
			assert.ok(list);
			const grant = list.grants.find(
				(candidate) => candidate.toolName === tool && (candidate.scopeKind ?? '') === kind,
			);
			assert.ok(grant);
			const { entry, stdout } = cli(recorded);
			assert.deepEqual(
				withPlaceholders(revokeGrantArgs(grant), entry.placeholders),
				entry.argv.slice(1),
			);
			assert.equal(parseRevokeCount(stdout), count);
			const removed = removedByRevoke(grant, list);
			assert.equal(removed.grants.length + removed.commandPrefixes.length, count);
		});
	}

	it('a host grant revoked by --path (the extension before issue #13) removes nothing', () => {
		const { entry, stdout } = cli('p13-revoke-host-by-path');
		assert.deepEqual(entry.argv.slice(1), [
			'sandbox',
			'grants',
			'revoke',
			'web_fetch',
			'--path=example.com',
			'--json',
		]);
		assert.equal(parseRevokeCount(stdout), 0);
		assert.equal(cli('p13-revoke-tool-wide-empty-path').entry.exitCode, 2);
	});

	it('offers grant commands only for names zero reads as a tool', () => {
		assert.ok(isGrantableToolName('mcp_fixture_echo'));
		for (const name of ['help', '--path=/', '-x', 'a b', 'x;y', '']) {
			assert.equal(isGrantableToolName(name), false, name);
		}
		assert.equal(parseRevokeCount('not json'), undefined);
		assert.equal(parseGrantList('{"grants":[{"decision":"allow"}]}'), undefined);
	});
});
