// `npm run build:integration-tests`: bundles every test/integration/*.ts entry to
// out/integration/*.js (cjs, node; `vscode` and `mocha` stay external: the extension host provides
// `vscode`, and mocha is loaded from node_modules). out/integration is emptied first so a deleted
// test never lingers as a stale .js file.
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { repoRoot } from './codeServer';

const srcDir = path.join(repoRoot, 'test', 'integration');
const outDir = path.join(repoRoot, 'out', 'integration');

const entryPoints = fs
	.readdirSync(srcDir)
	.filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
	.map((name) => path.join(srcDir, name));
if (!entryPoints.length) {
	console.error(`build:integration-tests: no .ts files in ${path.relative(repoRoot, srcDir)}`);
	process.exit(1);
}
fs.rmSync(outDir, { recursive: true, force: true });
buildSync({
	entryPoints,
	outdir: outDir,
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	// @vscode/test-electron only matters to runElectron.js, which runs outside VS Code.
	external: ['vscode', 'mocha', '@vscode/test-electron'],
	sourcemap: 'inline',
	logLevel: 'warning',
});
console.log(
	`build:integration-tests: ${entryPoints.length} file(s) -> ${path.relative(repoRoot, outDir)}/`,
);
