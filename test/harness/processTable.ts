/** The machine's processes as /proc lists them (Linux), for tests and benchmarks that watch them. */
import fs from 'node:fs';

export interface ProcessRow {
	pid: number;
	ppid: number;
	/** /proc's one-letter state (R, S, Z...). */
	state: string;
	/** The session id (a process group leader's pid). */
	session: number;
	/** CPU used so far: utime + stime, in clock ticks (USER_HZ, 100 a second on Linux). */
	ticks: number;
	cmdline: string;
}

/** Every process, zombies included (`state` 'Z'); one that ends while listed is left out. */
export function processTable(): ProcessRow[] {
	const rows: ProcessRow[] = [];
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) {
			continue;
		}
		try {
			const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			// Fields after the command name, which may hold spaces and parentheses itself.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			rows.push({
				pid: Number(name),
				state: fields[0],
				ppid: Number(fields[1]),
				session: Number(fields[3]),
				ticks: Number(fields[11]) + Number(fields[12]),
				cmdline: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' '),
			});
		} catch {
			// Gone while listed.
		}
	}
	return rows;
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}
