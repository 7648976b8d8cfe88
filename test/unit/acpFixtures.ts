/** `zero acp` turns and permission requests as the unit tests of the ACP path and its cards use them. */
import { AcpTurnMapper } from '../../src/host/acp/acpTurnMapper';
import { applyAction, createTranscript } from '../../src/shared/transcript';
import type { Transcript, TranscriptAction } from '../../src/shared/transcriptSchema';
import type {
	PermissionOption,
	RequestPermissionParams,
} from '../../src/zero/protocol/acp/schemas';

/** Allow once or reject: the two options every permission request of zero's offers. */
export const ALLOW_OR_REJECT: PermissionOption[] = [
	{ optionId: 'allow', name: 'Allow', kind: 'allow_once' },
	{ optionId: 'deny', name: 'Reject', kind: 'reject_once' },
];

/**
 * zero's request to run a shell command (`exec_command`) in session `S`: `rawInput` is the
 * command alone or the tool's whole input; `toolCall` changes the rest of the call.
 */
export function shellRequest(
	rawInput: string | Record<string, unknown>,
	options: PermissionOption[] = ALLOW_OR_REJECT,
	toolCall: Partial<RequestPermissionParams['toolCall']> = {},
): RequestPermissionParams {
	return {
		sessionId: 'S',
		toolCall: {
			toolCallId: 'call_1',
			title: 'exec_command',
			kind: 'execute',
			status: 'pending',
			rawInput: typeof rawInput === 'string' ? { cmd: rawInput } : rawInput,
			...toolCall,
		},
		options,
	};
}

/** A new chat whose turn `t1` (`prompt`) runs on `zero acp`, and the mapper of its session's events. */
export function acpTurnStarted(
	prompt: string,
	sessionId = 'S',
): { transcript: Transcript; mapper: AcpTurnMapper } {
	const transcript = createTranscript({ id: 'c', title: 't', createdAt: 0 });
	applyAction(transcript, {
		type: 'turn/start',
		turnId: 't1',
		prompt: { text: prompt, context: [] },
		command: { kind: 'chat', display: 'zero acp', permissionMode: 'member', backend: 'acp' },
	});
	return { transcript, mapper: new AcpTurnMapper({ turnId: 't1', sessionId }) };
}

/** Applies `actions` to `transcript` in order, and returns it. */
export function applyAll(transcript: Transcript, actions: TranscriptAction[]): Transcript {
	for (const action of actions) {
		applyAction(transcript, action);
	}
	return transcript;
}
