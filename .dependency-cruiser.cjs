// The architecture as rules (`npm run lint` runs them): no import cycles, and every layer imports
// only the layers below it. src/zero is the bottom (src/zero/protocol, pure, under
// src/zero/process, which spawns and reads files), then src/shared
// (used by the host and the webview), then the host's feature folders, then src/extension.ts.
/**
 * The host's feature folders, lowest first. A folder imports only folders of lower layers (never a
 * folder of its own layer: features of one layer stay independent); a new folder must be given a
 * layer here, or every import it makes is an error.
 */
const HOST_LAYERS = [
	['platform'],
	[
		'storage',
		'changes',
		'setup',
		'mentions',
		'turns',
		'views',
		'notices',
		'spec',
		'chatExport',
		'mcp',
		'usage',
		'terminalUi',
		'worktrees',
	],
	['acp', 'inspection', 'composer'],
	['chat'],
	['conversation'],
	['router'],
	['commands'],
	['testing'],
];

function hostLayerRules() {
	const all = HOST_LAYERS.flat();
	const rules = HOST_LAYERS.flatMap((layer, index) => {
		const below = HOST_LAYERS.slice(0, index).flat();
		return layer.map((folder) => ({
			name: `host-${folder}-imports-lower-layers-only`,
			severity: 'error',
			comment: `host/${folder} may import ${below.length ? below.join(', ') : 'no other host folder'}.`,
			from: { path: `^src/host/${folder}/` },
			to: { path: `^src/host/(?!(${[folder, ...below].join('|')})/)` },
		}));
	});
	rules.push({
		name: 'host-folder-has-a-layer',
		severity: 'error',
		comment: 'Every host folder has its place in HOST_LAYERS (.dependency-cruiser.cjs).',
		from: { path: `^src/host/(?!(${all.join('|')})/)` },
		to: {},
	});
	return rules;
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			severity: 'error',
			comment: 'Import cycles (type-only ones too) blur which module is built on which.',
			from: { path: '^src/' },
			to: { circular: true },
		},
		{
			name: 'zero-is-the-bottom-layer',
			severity: 'error',
			comment: "src/zero speaks zero's protocol; it imports nothing else from this project.",
			from: { path: '^src/zero/' },
			to: { path: '^src/(?!zero/)' },
		},
		{
			name: 'zero-protocol-uses-no-node-built-ins',
			severity: 'error',
			comment:
				"src/zero/protocol is zero's protocol as data (events, schemas, framing, argument lists): it runs anywhere, the webview included.",
			from: { path: '^src/zero/protocol/' },
			to: { dependencyTypes: ['core'] },
		},
		{
			name: 'zero-protocol-below-zero-process',
			severity: 'error',
			comment:
				'src/zero/process (spawning, files, stores) is built on the protocol, never the other way.',
			from: { path: '^src/zero/protocol/' },
			to: { path: '^src/zero/(?!protocol/)' },
		},
		{
			name: 'webview-never-reaches-zero-processes',
			severity: 'error',
			comment:
				'The webview uses zero only as protocol, through no chain of imports: spawning, files and stores are host business.',
			from: { path: '^src/webview/' },
			to: { path: '^src/zero/process/', reachable: true },
		},
		{
			name: 'shared-uses-zero-protocol-only',
			severity: 'error',
			comment: 'src/shared is bundled into the webview: of src/zero it imports the protocol only.',
			from: { path: '^src/shared/' },
			to: { path: '^src/zero/(?!protocol/)' },
		},
		{
			name: 'shared-below-host-and-webview',
			severity: 'error',
			comment: 'src/shared is used by the host and the webview, so it imports neither.',
			from: { path: '^src/shared/' },
			to: { path: '^src/(host|webview)/|^src/extension\\.ts$' },
		},
		{
			name: 'webview-is-browser-code',
			severity: 'error',
			comment: 'The webview runs in a browser: it never imports host code.',
			from: { path: '^src/webview/' },
			to: { path: '^src/(host/|extension\\.ts$)' },
		},
		{
			name: 'nothing-imports-the-composition-root',
			severity: 'error',
			from: { path: '^src/', pathNot: '^src/extension\\.ts$' },
			to: { path: '^src/extension\\.ts$' },
		},
		...hostLayerRules(),
		{
			name: 'shared-is-what-both-sides-use',
			severity: 'error',
			comment:
				'src/shared is the wire contract and what the host and the webview both compute: a module the webview never reaches belongs in the host folder that uses it.',
			from: { path: '^src/webview/main\\.ts$' },
			to: { path: '^src/shared/', reachable: false },
		},
		{
			name: 'only-the-root-uses-the-test-api',
			severity: 'error',
			from: { path: '^src/', pathNot: '^src/(extension\\.ts|host/testing/)' },
			to: { path: '^src/host/testing/' },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '^(node_modules|dist|out|test)/' },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
	},
};
