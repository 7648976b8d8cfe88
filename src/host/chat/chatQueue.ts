/** What waits in a chat's queue, and the turn a message becomes. No VS Code. */
import type { InputImage } from '../../zero/protocol/streamInput';
import type { ImageAttachment } from '../../shared/protocol';
import type { Transcript } from '../../shared/transcriptSchema';
import type { ChatPermissionMode } from '../../zero/protocol/permissionModes';
import { composePrompt, type ContextEntry } from '../composer/promptContext';
import { specDraftMessage } from '../spec/specPrompts';
import type { TurnRequest } from '../turns/turnBackend';

/** A message as sent: its words, images, mentions, and how it runs. */
export interface QueuedMessage {
	kind: 'message';
	text: string;
	images: ImageAttachment[];
	context: ContextEntry[];
	/** A zero user command's expansion, and the command line it came from. */
	expanded?: { prompt: string; command: string };
	planFirst: boolean;
}

/** A message, or a turn made elsewhere (a spec's implementation, a re-run). */
export type Queued = QueuedMessage | { kind: 'turn'; turnId: string; request: TurnRequest };

/** The words the composer's queue shows for an item. */
export function queuedText(item: Queued): string {
	return item.kind === 'message' ? item.text : item.request.displayText;
}

/** The turn a sent message runs as (a spec draft when it plans first). */
export function messageTurnRequest(
	message: QueuedMessage,
	checkedImages: InputImage[],
	chat: { transcript: Transcript; permissionMode: ChatPermissionMode; addDirs: readonly string[] },
): TurnRequest {
	const { text, images, context, expanded, planFirst } = message;
	const prompt = composePrompt(expanded?.prompt ?? text, context);
	return {
		kind: planFirst ? 'spec-draft' : 'chat',
		message: planFirst ? specDraftMessage(prompt, chat.transcript) : prompt,
		displayText: expanded?.prompt ?? text,
		...(expanded ? { command: expanded.command } : {}),
		context: [
			...context.map((entry) => entry.chip),
			...images.map((image, index) => ({
				id: `img${index}`,
				kind: 'image' as const,
				label: image.name,
			})),
		],
		images: checkedImages,
		permissionMode: chat.permissionMode,
		addDirs: [...chat.addDirs],
	};
}
