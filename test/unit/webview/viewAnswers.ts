/** What the row renderers ask of the view, answered as a collapsed, writable chat at time 0. */
import type { TurnNotices } from '../../../src/shared/notices';
import type { RenderContext } from '../../../src/webview/renderContext';

export function renderContext(answers: Partial<RenderContext> = {}): RenderContext {
	return {
		isExpanded: () => false,
		toolDetails: () => 'unavailable',
		toolNotice: () => undefined,
		turnNotices: () => undefined,
		isReadOnly: () => false,
		now: () => 0,
		...answers,
	};
}

/** Answers for a chat whose turns carry these notices (by turn id). */
export function noticeAnswers(notices: Map<string, TurnNotices>): Partial<RenderContext> {
	return {
		toolNotice: (turnId, itemId) => notices.get(turnId)?.items[itemId],
		turnNotices: (turnId) => notices.get(turnId),
	};
}
