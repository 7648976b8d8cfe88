/** What row renderers may ask of the chat app (expanded rows, fetched details, the host's notices). */
import type { NoticeView, TurnNotices } from '../shared/notices';
import type { ToolItem, Turn } from '../shared/transcriptSchema';
import type { ToolDetails } from '../shared/viewTranscript';

export interface RenderContext {
	/** Whether a row (or a disclosure, by its own key) is expanded. */
	isExpanded(key: string): boolean;
	/** A tool card's arguments and output: at hand, being fetched from the host, or unavailable. */
	toolDetails(turn: Turn, item: ToolItem): ToolDetails | 'loading' | 'unavailable';
	/** The notice the host sent for a tool call, if any. */
	toolNotice(turnId: string, itemId: string): NoticeView | undefined;
	/** Every notice the host sent for a turn. */
	turnNotices(turnId: string): TurnNotices | undefined;
	isReadOnly(): boolean;
	/** Whether zero runs in this chat now (Undo waits for the run: disabled, not just dimmed). */
	isRunning?(): boolean;
	/** The text of the message being edited in place, if `turnId`'s is (absent: none is). */
	messageEdit?(turnId: string): string | undefined;
	now(): number;
}
