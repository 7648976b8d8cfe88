/** What a short zero subcommand left behind (`zero --version`, `zero sessions list --json`, ...). */
export interface CliResult {
	/** Null when the process was killed, timed out or never started. */
	exitCode: number | null;
	stdout: string;
	stderr: string;
	/** Set when the program could not be started or ran past its time. */
	error?: string;
}
