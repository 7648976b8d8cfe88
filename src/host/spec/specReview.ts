/**
 * The review actions on a spec zero drafted (`zero exec --use-spec`, issue #25): show, approve with
 * an optional comment, reject with an optional reason, read a draft's status and reject reason,
 * and read the implementation prompt zero stored on approval. Each action is one short
 * `zero spec ... --json` (or `sessions list`) through the CLI runner, with a bounded time, and
 * ends in a typed answer or a one-line problem, never an exception.
 *
 * zero reports the spec file's absolute path; before anything opens it, it must resolve (symlinks
 * followed) inside the workspace's `.zero/specs/`: a path a model or a tampered session store
 * could bend elsewhere is refused. No vscode here: the chat wires a runner
 * ({@link specRunnerFromZeroCli}) and the workspace folder.
 */
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { runZeroCli, type CliResult } from '../../zero/process/cli';
import { readCliJson, type CliAnswer } from '../../zero/protocol/cliAnswers';
import { readBounded } from '../../zero/process/storeFiles';
import {
	buildSpecDraftListArgs,
	buildSpecReviewArgs,
	implementationPromptFromEvents,
	MAX_SPEC_CONTENT,
	SPEC_DIR,
	SpecDecisionSchema,
	specSessionIn,
	SpecShowSchema,
	type SpecDecision,
	type SpecSession,
	type SpecShow,
} from '../../zero/protocol/specProtocol';
import { asCliResult, type ZeroCli } from '../platform/zeroCli';

/** How long one spec subcommand may take: they read and write a few small files. */
export const SPEC_CLI_TIMEOUT_MS = 15_000;

export type SpecCliRunner = (
	args: readonly string[],
	options: { cwd: string; timeoutMs: number },
) => Promise<CliResult>;

/** A runner over the extension's ZeroCli (trust check, the user's binary and env, logging). */
export function specRunnerFromZeroCli(cli: Pick<ZeroCli, 'run'>): SpecCliRunner {
	return async (args, options) => asCliResult(await cli.run(args, options));
}

/** A runner over a known binary and environment (the real-zero tests). */
export function specRunnerFor(binary: string, env: NodeJS.ProcessEnv): SpecCliRunner {
	return (args, options) => runZeroCli(binary, args, { env, ...options });
}

export interface SpecReviewOptions {
	run: SpecCliRunner;
	/** The chat's workspace folder (zero's `--cwd`): spec files must be under its `.zero/specs/`. */
	workspaceRoot: string;
	/** zero's session store (`zeroSessionsRoot`), to read the implementation prompt after approval. */
	sessionsRoot?: string;
	timeoutMs?: number;
}

export interface ApprovedSpec {
	decision: SpecDecision & { implementationSessionId: string };
	/** zero's implementation prompt (the spec at approve time + the comment), the next run's message. */
	implementationPrompt: string;
}

function problem<T>(text: string): CliAnswer<T> {
	return { ok: false, problem: text };
}

function inside(root: string, file: string): boolean {
	const relative = path.relative(root, file);
	return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * The spec file, resolved, when it lies in `<workspace>/.zero/specs/` both as written and with
 * every symlink followed; otherwise a problem saying why.
 */
export async function specFileInWorkspace(
	workspaceRoot: string,
	specFilePath: string,
): Promise<CliAnswer<string>> {
	const shown = JSON.stringify(specFilePath.slice(0, 200));
	if (!path.isAbsolute(specFilePath) || specFilePath.includes('\u0000')) {
		return problem(`zero reported a spec file that is not an absolute path: ${shown}.`);
	}
	const root = path.resolve(workspaceRoot);
	const specDir = path.join(root, ...SPEC_DIR.split('/'));
	const file = path.resolve(specFilePath);
	if (!inside(specDir, file) || path.extname(file) !== '.md') {
		return problem(`zero reported a spec file outside the workspace's ${SPEC_DIR}: ${shown}.`);
	}
	let realRoot: string;
	let realFile: string;
	try {
		realRoot = await realpath(root);
		realFile = await realpath(file);
	} catch {
		return problem(`The spec file ${shown} does not exist.`);
	}
	if (!inside(path.join(realRoot, ...SPEC_DIR.split('/')), realFile)) {
		return problem(`The spec file ${shown} leads outside the workspace.`);
	}
	return { ok: true, value: realFile };
}

export class SpecReview {
	private readonly timeoutMs: number;

	constructor(private readonly options: SpecReviewOptions) {
		this.timeoutMs = Math.min(options.timeoutMs ?? SPEC_CLI_TIMEOUT_MS, 60_000);
	}

	private async answer<T>(
		args: string[] | Error,
		schema: z.ZodType<T>,
		command: string,
	): Promise<CliAnswer<T>> {
		if (args instanceof Error) {
			return problem(args.message);
		}
		const result = await this.options.run(args, {
			cwd: this.options.workspaceRoot,
			timeoutMs: this.timeoutMs,
		});
		return readCliJson(result, schema, command);
	}

	private async checked<T extends { specFilePath?: string }>(
		answer: CliAnswer<T>,
	): Promise<CliAnswer<T>> {
		if (!answer.ok || answer.value.specFilePath === undefined) {
			return answer;
		}
		const file = await specFileInWorkspace(this.options.workspaceRoot, answer.value.specFilePath);
		return file.ok ? answer : file;
	}

	/** `zero spec show <target> --json`: the spec's status and its text as it is on disk now. */
	async show(target: string): Promise<CliAnswer<SpecShow>> {
		return this.checked(
			await this.answer(
				argsOrError(() => buildSpecReviewArgs({ kind: 'show', target })),
				SpecShowSchema,
				'zero spec show',
			),
		);
	}

	/**
	 * `zero spec approve <target> [--comment=...] --json`, then zero's stored implementation prompt.
	 * zero reads the spec file at this moment: edits saved before approving are what gets built.
	 */
	async approve(target: string, comment?: string): Promise<CliAnswer<ApprovedSpec>> {
		// zero reads the file it recorded; look at where that is BEFORE zero builds a prompt of it.
		const shown = await this.show(target);
		if (!shown.ok) {
			return shown;
		}
		const decided = await this.checked(
			await this.answer(
				argsOrError(() => buildSpecReviewArgs({ kind: 'approve', target, comment })),
				SpecDecisionSchema,
				'zero spec approve',
			),
		);
		if (!decided.ok) {
			return decided;
		}
		const implementationSessionId = decided.value.implementationSessionId;
		if (decided.value.status !== 'approved' || !implementationSessionId) {
			return problem('zero spec approve did not name an implementation session.');
		}
		const prompt = await this.implementationPrompt(implementationSessionId);
		return prompt.ok
			? {
					ok: true,
					value: {
						decision: { ...decided.value, implementationSessionId },
						implementationPrompt: prompt.value,
					},
				}
			: prompt;
	}

	/** `zero spec reject <target> [--reason=...] --json` (after the same look at the file). */
	async reject(target: string, reason?: string): Promise<CliAnswer<SpecDecision>> {
		const shown = await this.show(target);
		if (!shown.ok) {
			return shown;
		}
		return this.checked(
			await this.answer(
				argsOrError(() => buildSpecReviewArgs({ kind: 'reject', target, reason })),
				SpecDecisionSchema,
				'zero spec reject',
			),
		);
	}

	/** A draft's status, comment and reject reason (`spec show` has no reason; this list has). */
	async draftStatus(draftSessionId: string): Promise<CliAnswer<SpecSession>> {
		const listed = await this.answer(
			buildSpecDraftListArgs(),
			// The entries are read one by one below; a bad one is skipped, not fatal.
			z.unknown(),
			'zero sessions list',
		);
		if (!listed.ok) {
			return listed;
		}
		const found = specSessionIn(listed.value, draftSessionId);
		return found
			? { ok: true, value: found }
			: problem(`zero has no spec draft ${draftSessionId}.`);
	}

	/** The first user message zero stored in the `spec-impl` session (bounded, no symlinks). */
	async implementationPrompt(implementationSessionId: string): Promise<CliAnswer<string>> {
		const root = this.options.sessionsRoot;
		if (!root) {
			return problem(
				"zero's session store is unknown, so the implementation prompt cannot be read.",
			);
		}
		if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(implementationSessionId)) {
			return problem('zero named an implementation session that is not a session id.');
		}
		const bytes = await readBounded(
			path.join(root, implementationSessionId, 'events.jsonl'),
			MAX_SPEC_CONTENT * 2,
			true,
		);
		if (!bytes.ok) {
			return problem(`The implementation session cannot be read: ${bytes.reason}.`);
		}
		const prompt = implementationPromptFromEvents(Buffer.from(bytes.value).toString('utf8'));
		return prompt
			? { ok: true, value: prompt }
			: problem("The implementation session does not start with zero's implementation prompt.");
	}
}

function argsOrError(build: () => string[]): string[] | Error {
	try {
		return build();
	} catch (error) {
		return error instanceof Error ? error : new Error(String(error));
	}
}
