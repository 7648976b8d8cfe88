import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** Saved inspection reports, newest first. */
export class ReportStore {
	constructor(private readonly root: string) {}

	get dir(): string {
		return path.join(this.root, 'reports');
	}

	async save(name: string, markdown: string, now: number): Promise<vscode.Uri> {
		await fs.mkdir(this.dir, { recursive: true });
		const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
		const slug =
			name
				.toLowerCase()
				.replace(/[^a-z0-9]+/g, '-')
				.replace(/^-|-$/g, '')
				.slice(0, 40) || 'inspection';
		const file = path.join(this.dir, `${stamp}-${slug}.md`);
		await fs.writeFile(file, markdown, 'utf8');
		return vscode.Uri.file(file);
	}

	async list(): Promise<{ uri: vscode.Uri; name: string; mtime: number }[]> {
		try {
			const names = (await fs.readdir(this.dir)).filter((name) => name.endsWith('.md'));
			const entries = await Promise.all(
				names.map(async (name) => ({
					uri: vscode.Uri.file(path.join(this.dir, name)),
					name,
					mtime: (await fs.stat(path.join(this.dir, name))).mtimeMs,
				})),
			);
			return entries.sort((a, b) => b.mtime - a.mtime);
		} catch {
			return [];
		}
	}
}
