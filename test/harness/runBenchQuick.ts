// `npm run bench:quick`: every benchmark once, in a small form, so none can rot unnoticed (a
// benchmark whose inputs drift from the protocol fails here, not months later). Each passes when it
// runs to the end and exits 0; no figure it prints is judged: speed is a verdict about the machine.
import { spawn } from 'node:child_process';
import { repoRoot } from './codeServer';
import { printTierSummary } from './tierSummary';

const QUICK_FORMS: { name: string; script: string; args: string[] }[] = [
	{ name: 'protocol', script: 'bench', args: ['--mb', '2', '--rounds', '1'] },
	{ name: 'fuzz', script: 'bench:fuzz', args: ['--cases', '100', '--rounds', '1'] },
	{ name: 'webview', script: 'bench:webview', args: ['--events=2000'] },
	{ name: 'transcript', script: 'bench:transcript', args: ['--mb', '2'] },
	{ name: 'firstbyte', script: 'bench:firstbyte', args: ['--turns', '2'] },
	{ name: 'idle', script: 'bench:idle', args: ['--seconds', '2', '--no-bare-workbench'] },
	{ name: 'chats', script: 'bench:chats', args: ['--chats', '3', '--events', '1000'] },
	{
		name: 'soak',
		script: 'bench:soak',
		args: ['--turns', '10', '--events', '2000', '--compare-events', '2000'],
	},
	{ name: 'activation', script: 'bench:activation', args: ['--runs', '1', '--chat-mb', '1'] },
	// The issue's own size: 1,000 .gitignore lines over 10,000 paths, once.
	{ name: 'ignore', script: 'bench:ignore', args: ['--rounds', '1'] },
	// The issue's own size too: 10,000 files, 10 changed per turn; two turns.
	{ name: 'baseline', script: 'bench:baseline', args: ['--turns', '2'] },
];

function run(script: string, args: string[]): Promise<number> {
	return new Promise((resolve) => {
		const child = spawn('npm', ['run', script, '--', ...args], { cwd: repoRoot, stdio: 'inherit' });
		child.on('close', (code) => resolve(code ?? 1));
		child.on('error', () => resolve(1));
	});
}

async function main(): Promise<void> {
	const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
	let passed = 0;
	const failed: string[] = [];
	for (const form of QUICK_FORMS.filter((f) => !only || only.split(',').includes(f.name))) {
		console.log(`\n==== bench ${form.name}: npm run ${form.script} -- ${form.args.join(' ')}`);
		const code = await run(form.script, form.args);
		if (code === 0) {
			passed++;
			console.log(`ok - bench ${form.name}`);
		} else {
			failed.push(form.name);
			console.log(`not ok - bench ${form.name} (exit ${code})`);
		}
	}
	printTierSummary('bench', {
		passed,
		failed: failed.length,
		...(failed.length > 0 ? { reason: `did not run to the end: ${failed.join(', ')}` } : {}),
	});
	process.exitCode = failed.length > 0 ? 1 : 0;
}

void main();
