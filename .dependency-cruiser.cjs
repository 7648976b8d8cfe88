// The architecture as rules (`npm run lint` runs them): no import cycles, and every layer imports
// only the layers below it. src/zero is the bottom (src/zero/protocol, pure, under
// src/zero/process, which spawns and reads files), then src/shared
// (used by the host and the webview), then the host's feature folders, then src/extension.ts.
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
		{
			name: 'host-platform-is-below-features',
			severity: 'error',
			comment: 'Host plumbing (log, settings, processes, context keys) serves every feature.',
			from: { path: '^src/host/platform/' },
			to: { path: '^src/host/(?!platform/)' },
		},
		{
			name: 'host-views-know-no-features',
			severity: 'error',
			comment: 'Webview hosts bind to a ChatSource; they do not know the chat, setup or commands.',
			from: { path: '^src/host/views/' },
			to: { path: '^src/host/(chat|changes|commands|inspection|setup|testing)/' },
		},
		{
			name: 'host-setup-and-inspection-are-independent',
			severity: 'error',
			from: { path: '^src/host/(setup|inspection)/' },
			to: { path: '^src/host/(chat|changes|commands|views|testing)/' },
		},
		{
			name: 'host-changes-below-chat',
			severity: 'error',
			comment:
				'Review and undo know a chat only as a ChangeChat: chats and commands use them, never the other way.',
			from: { path: '^src/host/changes/' },
			to: { path: '^src/host/(chat|commands|views|inspection|setup|testing)/' },
		},
		{
			name: 'host-chat-below-commands',
			severity: 'error',
			from: { path: '^src/host/chat/' },
			to: { path: '^src/host/(commands|testing|inspection)/' },
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
