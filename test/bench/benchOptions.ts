/** `--name N` from the command line, a positive whole number, or `fallback` when absent. */
export function wholeNumberOption(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	const value = index === -1 ? fallback : Number(process.argv[index + 1]);
	if (!Number.isInteger(value) || value < 1) {
		throw new Error(`--${name} needs a positive whole number`);
	}
	return value;
}
