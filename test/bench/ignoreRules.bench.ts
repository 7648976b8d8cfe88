/**
 * npm run bench:ignore [-- --patterns 1000] [--paths 10000] [--rounds 3]
 *
 * The mention hide rules' .gitignore matching (src/host/mentions/ignoreRules.ts, globs matched by
 * globMatch.ts in time linear in the path): `--patterns` .gitignore lines over `--paths` workspace
 * paths, side by side with the `ignore` package (what ESLint and Prettier use) on the same lines,
 * in one run. Then the same count of hostile lines (what a cloned repository may hold), which the
 * `ignore` package is not given: `x/**\/**\/.../y` against a deep path holds it for minutes.
 */
import ignore from 'ignore';
import { gitignoreMatcher } from '../../src/host/mentions/ignoreRules';
import { wholeNumberOption } from './benchOptions';

function realisticPatterns(count: number): string[] {
	const shapes = [
		(i: number) => `*.tmp${i}`,
		(i: number) => `build${i}/`,
		(i: number) => `/dist${i}`,
		(i: number) => `docs/**/draft${i}.md`,
		(i: number) => `!keep${i}.log`,
		(i: number) => `src/gen${i}/*.js`,
		(i: number) => `**/cache${i}/**`,
		(i: number) => `file[0-9]${i}.txt`,
	];
	return Array.from({ length: count }, (_, i) => shapes[i % shapes.length](i));
}

function hostilePatterns(count: number): string[] {
	const shapes = [
		(i: number) => `${'*a'.repeat(12)}*b${i}`,
		(i: number) => `x/${'**/'.repeat(20)}y${i}`,
		(i: number) => `${'**/a*/'.repeat(6)}z${i}`,
		(i: number) => `${'[a]*'.repeat(12)}c${i}`,
	];
	return Array.from({ length: count }, (_, i) => shapes[i % shapes.length](i));
}

function paths(count: number): string[] {
	const names = ['src', 'lib', 'docs', 'build3', 'x', 'a'.repeat(40), 'cache7', 'gen5'];
	return Array.from({ length: count }, (_, i) => {
		const depth = 1 + (i % 12);
		const parts = Array.from({ length: depth }, (_, d) => names[(i + d) % names.length]);
		return `${parts.join('/')}/file${i % 97}.${['js', 'md', 'log', 'txt'][i % 4]}`;
	});
}

function time(run: () => number): { ms: number; ignored: number } {
	const start = process.hrtime.bigint();
	const ignored = run();
	return { ms: Number(process.hrtime.bigint() - start) / 1e6, ignored };
}

function main(): void {
	const patternCount = wholeNumberOption('patterns', 1000);
	const pathCount = wholeNumberOption('paths', 10_000);
	const rounds = wholeNumberOption('rounds', 3);
	const all = paths(pathCount);
	const realistic = realisticPatterns(patternCount).join('\n');
	const hostile = hostilePatterns(patternCount).join('\n');
	const ours = (text: string) => () => {
		const matches = gitignoreMatcher([{ dir: '', text }]);
		return all.filter((relative) => matches(relative, false)).length;
	};
	const theirs = () => {
		const matcher = ignore().add(realistic);
		return all.filter((relative) => matcher.ignores(relative)).length;
	};
	console.log(`${patternCount} .gitignore lines over ${pathCount} paths, ${rounds} rounds`);
	const rows: { name: string; ms: number[]; ignored: number }[] = [
		{ name: 'ignore package, realistic lines', ms: [], ignored: 0 },
		{ name: 'Zero, realistic lines', ms: [], ignored: 0 },
		{ name: 'Zero, hostile lines', ms: [], ignored: 0 },
	];
	for (let round = 0; round < rounds; round++) {
		// Interleaved, so a busier stretch of the machine weighs on each alike.
		for (const [row, run] of [
			[rows[0], theirs],
			[rows[1], ours(realistic)],
			[rows[2], ours(hostile)],
		] as const) {
			const measured = time(run);
			row.ms.push(measured.ms);
			row.ignored = measured.ignored;
		}
	}
	const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
	console.log('| matcher | median time | paths ignored |');
	console.log('| --- | --- | --- |');
	for (const row of rows) {
		console.log(`| ${row.name} | ${median(row.ms).toFixed(1)} ms | ${row.ignored} |`);
	}
	const base = median(rows[0].ms);
	console.log(
		`\nZero / ignore package (realistic): ${(median(rows[1].ms) / base).toFixed(2)}x; Zero hostile / ignore realistic: ${(median(rows[2].ms) / base).toFixed(2)}x`,
	);
	if (rows[0].ignored !== rows[1].ignored) {
		console.log(
			`NOTE: the two matchers disagree on ${Math.abs(rows[0].ignored - rows[1].ignored)} paths of the realistic set.`,
		);
	}
}

main();
