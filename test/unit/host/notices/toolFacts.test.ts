import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowedIn, modeThatAllows, writeTargets } from '../../../../src/host/notices/toolFacts';
import type { RunContext } from '../../../../src/shared/permissionTypes';
import type { ToolItem } from '../../../../src/shared/transcriptSchema';

const tool = (name: string, args: unknown, extra: Partial<ToolItem> = {}): ToolItem =>
	({ kind: 'tool', id: 'c1', name, args, status: 'error', ...extra }) as ToolItem;

const context = (over: Partial<RunContext> = {}): RunContext =>
	({ cwd: '/ws', permissionMode: 'member', shellSandbox: false, ...over }) as RunContext;

describe('what a refused tool call asked for', () => {
	it("reads apply_patch's targets from its patch text", () => {
		const patch = '*** Begin Patch\n*** Update File: src/a.ts\n*** Add File: b.md\n*** End Patch';
		assert.deepEqual(writeTargets(tool('apply_patch', { patch })), ['src/a.ts', 'b.md']);
		assert.deepEqual(writeTargets(tool('write_file', { path: ' notes.txt ' })), ['notes.txt']);
	});

	it('allows a write inside the workspace below plan mode, never outside it', () => {
		const inside = tool('write_file', { path: 'src/a.ts' }, { sideEffect: 'write' });
		const outside = tool('write_file', { path: '/etc/hosts' }, { sideEffect: 'write' });
		assert.equal(allowedIn(inside, 'member', context()), true);
		assert.equal(allowedIn(inside, 'plan', context()), false);
		assert.equal(allowedIn(outside, 'unsafe', context()), false);
		assert.equal(modeThatAllows(inside, context({ permissionMode: 'plan' })), 'member');
		assert.equal(modeThatAllows(outside, context()), undefined);
	});

	it('lets a shell command run without a sandbox only in unsafe mode, and a networked one never', () => {
		const shell = tool('bash', { command: 'ls' }, { sideEffect: 'shell' });
		assert.equal(modeThatAllows(shell, context()), 'unsafe');
		assert.equal(modeThatAllows(shell, context({ shellSandbox: true })), 'member');
		const curl = tool('bash', { command: 'curl x' }, {
			sideEffect: 'shell',
			permission: { risk: { categories: ['network'] } },
		} as Partial<ToolItem>);
		assert.equal(modeThatAllows(curl, context()), undefined);
	});
});
