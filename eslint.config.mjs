// Lint config. The layering rules are the point: they make the build fail when a layer reaches
// for something it must not depend on.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];
const noVscode = { name: 'vscode', message: 'This layer must not depend on the VS Code API.' };

export default tseslint.config(
	{
		ignores: [
			'dist/**',
			'out/**',
			'node_modules/**',
			'.vscode-test/**',
			'test-output/**',
			'**/*.mjs',
			'**/*.js',
		],
	},
	...tseslint.configs.recommended,
	{
		rules: {
			curly: 'error',
			eqeqeq: ['error', 'always'],
			'no-console': 'error',
			'@typescript-eslint/consistent-type-imports': 'error',
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
	{
		// A file past 400 lines holds more than one job: split it by responsibility. A file that
		// must stay whole says why in its header and is listed here (at most two).
		files: ['src/**/*.ts'],
		rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
	},
	{
		files: ['src/zero/**/*.ts', 'src/shared/**/*.ts'],
		rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
	},
	{
		// zero's protocol as data runs anywhere (the webview bundles parts of it through src/shared).
		files: ['src/shared/**/*.ts', 'src/webview/**/*.ts', 'src/zero/protocol/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						noVscode,
						...nodeBuiltins.map((name) => ({
							name,
							message: 'Browser code and zero protocol code: no Node.js built-ins.',
						})),
					],
				},
			],
			'no-restricted-globals': ['error', 'process', 'Buffer', 'require', '__dirname', '__filename'],
		},
	},
	{
		// CommonJS by necessity (a NODE_OPTIONS --require preload, dependency-cruiser's config).
		files: ['**/*.cjs'],
		languageOptions: { sourceType: 'commonjs' },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: ['test/**/*.ts', 'src/host/**/*.ts', 'src/extension.ts'],
		rules: { 'no-console': 'off' },
	},
);
