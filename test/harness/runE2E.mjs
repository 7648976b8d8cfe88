// `npm run test:e2e`: packages the .vsix once, installs it into a fresh code-server extensions
// dir, then runs every test/e2e/*.e2e.ts with `node --import tsx --test` (one file at a time: each
// starts its own code-server and Chromium). Fails on any failure or when no test ran.
//
//   --no-build     reuse ./zero-vscode.vsix as it is
//   other arguments are passed to `node --test` (for example --test-name-pattern=activity)
import path from 'node:path';
import { exitWith, runPackagedSuite, suiteFiles, testOutputDir } from './packagedSuite.mjs';

exitWith(
	() =>
		runPackagedSuite({
			tier: 'e2e',
			label: 'E2E',
			files: suiteFiles('e2e', '.e2e.ts'),
			outDir: path.join(testOutputDir, 'e2e'),
			argv: process.argv.slice(2),
			testTimeoutMs: 300_000,
		}),
	'E2E',
	'e2e',
);
