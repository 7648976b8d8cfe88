// @ts-check
// `npm start` on a fresh clone: installs node_modules first when they are missing (tsx among
// them), then runs startVsCode.ts through tsx in this same process, so that Ctrl+C reaches it.
// Plain JavaScript because it must run before `npm install`.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..', '..');
if (!fs.existsSync(path.join(repoRoot, 'node_modules', 'tsx'))) {
	console.log('> npm install');
	const res = spawnSync('npm', ['install'], { cwd: repoRoot, stdio: 'inherit' });
	if (res.status !== 0) {
		console.error(`\nnpm install failed (exit ${res.status ?? res.signal})`);
		process.exit(1);
	}
}
require('tsx/cjs/api').register();
require('./startVsCode.ts');
