/**
 * "Open diff" on a waiting write, edit or patch request: the whole change it would make, in VS
 * Code's diff editor (a patch as zero wrote it), computed again from the file now.
 */
import { findTurn } from '../../shared/transcript';
import type { Transcript } from '../../shared/transcriptSchema';
import type { Messages } from '../platform/confirmations';
import type { ChatViewActions } from '../views/viewActions';
import { proposedEditOrRefusal, readInFolder } from './proposedEdits';

export async function openApprovalDiff(
	actions: Pick<ChatViewActions, 'openDiff' | 'showDocument'>,
	messages: Messages,
	transcript: Transcript,
	folder: string | undefined,
	turnId: string,
	itemId: string,
): Promise<void> {
	const item = findTurn(transcript, turnId)?.run.items.find((candidate) => candidate.id === itemId);
	const approval = item?.kind === 'tool' ? item.approval : undefined;
	if (!item || item.kind !== 'tool' || !approval || approval.state !== 'waiting') {
		messages.show('info', 'zero no longer waits on that request: its card shows what happened.');
		return;
	}
	const edit = proposedEditOrRefusal(approval.toolName ?? item.name, approval.rawInput, (file) =>
		folder === undefined ? undefined : readInFolder(folder, file),
	);
	// The document names are ours: a model's path only reaches them as a base name.
	const callPart = item.callId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || 'call';
	if (!edit) {
		messages.show('info', `${item.name} changes no file: there is no diff to show.`);
	} else if (edit.kind === 'unknown') {
		messages.show('info', `No diff of the change: ${edit.reason}.`);
	} else if (edit.kind === 'patch') {
		await actions.showDocument(`proposed/${callPart}/zero-patch.diff`, edit.patch, 'diff');
	} else {
		const base = baseName(edit.path);
		await actions.openDiff(
			`${edit.path} \u2194 as ${item.name} would leave it (not applied)`,
			{ name: `proposed/${callPart}/before/${base}`, content: edit.before },
			{ name: `proposed/${callPart}/after/${base}`, content: edit.after },
		);
	}
}

function baseName(file: string): string {
	const last = file.split(/[\\/]/).pop() ?? '';
	return last.replace(/[^\w.-]/g, '_').slice(0, 120) || 'file';
}
