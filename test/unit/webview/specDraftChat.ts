/** Chats built line by line from zero's stream-json events, for the webview's renderers. */
import { applyAction, createTranscript } from '../../../src/shared/transcript';
import type { Transcript } from '../../../src/shared/transcriptSchema';
import { runLine } from '../helpers';

/** One stream-json event of turn t1, as zero prints it. */
export function eventLine(transcript: Transcript, value: object): void {
	applyAction(transcript, runLine(value));
}

/** A `zero exec --use-spec` turn that ended with a spec draft for review, titled `title`. */
export function specDraftChat(title: string): Transcript {
	const transcript = createTranscript({ id: 'c1', title: 't', createdAt: 0 });
	applyAction(transcript, {
		type: 'turn/start',
		turnId: 't1',
		prompt: { text: 'task', context: [] },
		command: { kind: 'spec-draft', display: 'zero exec --use-spec', permissionMode: 'member' },
	});
	eventLine(transcript, {
		type: 'final',
		text: 'Spec draft saved for review.',
		meta: {
			stopReason: 'spec_review_required',
			status: 'draft',
			specId: '2026-12-02-x',
			specTitle: title,
			specFilePath: '/ws/.zero/specs/2026-12-02-x.md',
			relativePath: '.zero/specs/2026-12-02-x.md',
			draftSessionId: 'draft-1',
		},
	});
	eventLine(transcript, { type: 'run_end', status: 'spec_review_required', exitCode: 0 });
	return transcript;
}
