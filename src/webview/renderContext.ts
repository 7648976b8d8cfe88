/** What row renderers may ask of the chat app (expanded rows, fetched details, offered actions). */
import type { PermissionActionView } from '../shared/protocol';
import type { ToolItem, Turn } from '../shared/transcriptSchema';
import type { ToolDetails } from '../shared/viewTranscript';

export interface RenderContext {
	isExpanded(key: string): boolean;
	/** A tool card's arguments and output: at hand, being fetched from the host, or unavailable. */
	toolDetails(turn: Turn, item: ToolItem): ToolDetails | 'loading' | 'unavailable';
	permissionActions(turnId: string, itemId: string): PermissionActionView[];
	isReadOnly(): boolean;
	now(): number;
}
