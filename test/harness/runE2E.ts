/**
 * `npm run test:e2e`: packages the .vsix once, installs it (and the TEST-ONLY driver extension)
 * into a fresh code-server extensions dir, then runs every test/e2e/*.e2e.ts one file at a time
 * (each starts its own code-server and Chromium). Fails on any failure or when no test ran.
 *
 *   --no-build  --file <part>  --grep <regexp>  --repeat <n>   (see packagedSuite.ts)
 *
 * `npm run test:e2e -- --repeat 5` is the flake detector for this tier.
 */
import './privateTempDir';
import path from 'node:path';
import { testOutputDir } from './codeServer';
import { exitWith, parseSuiteArgs, runPackagedSuite, suiteFiles } from './packagedSuite';

exitWith(
	async () =>
		runPackagedSuite({
			tier: 'e2e',
			label: 'E2E',
			files: suiteFiles('e2e', '.e2e.ts'),
			outDir: path.join(testOutputDir, 'e2e'),
			args: parseSuiteArgs(process.argv.slice(2)),
			testTimeoutMs: 300_000,
		}),
	'E2E',
	'e2e',
);
