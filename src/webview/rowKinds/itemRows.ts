/** The rows of a run's items: answer text, reasoning, tool cards, and zero's notices. */
import { itemKey } from '../../shared/transcript';
import type { Turn } from '../../shared/transcriptSchema';
import {
	renderReasoning,
	renderText,
	updateLiveReasoning,
	updateStreamingText,
} from '../renderText';
import { renderTool } from '../renderTool';
import {
	renderDiagnostic,
	renderError,
	renderNotice,
	renderUnrecognized,
	renderWarning,
} from './noticeRows';
import type { ItemRowKinds } from './rowKind';

/** The last item of a running turn grows in place. */
function streaming(row: { turn: Turn; last: boolean }): boolean {
	return row.last && row.turn.run.phase !== 'ended';
}

export const ITEM_ROWS: ItemRowKinds = {
	text: {
		estimate: ({ item }) => Math.min(2000, 24 + Math.ceil(item.text.length / 70) * 20),
		inputs: (row) => [row.item, streaming(row)],
		render: (row, _context, previous) =>
			previous && streaming(row) && updateStreamingText(previous, row.item.text)
				? previous
				: renderText(row.item.text, streaming(row), row.turn.id, row.item.id),
	},
	reasoning: {
		estimate: () => 34,
		inputs: (row) => [row.item, streaming(row)],
		render: (row, context, previous) => {
			const expanded = context.isExpanded(itemKey(row.turn.id, row.item.id));
			return previous && streaming(row) && !expanded && updateLiveReasoning(previous, row.item.text)
				? previous
				: renderReasoning(row.item.text, streaming(row), expanded, row.turn.id, row.item.id);
		},
	},
	tool: {
		estimate: () => 46,
		// A checkpointed call's "undoable" becomes "put back" when the card's files go back.
		inputs: ({ turn, item }) => [
			item,
			turn.run.phase,
			turn.changes?.undo.kind,
			turn.changes?.files.map((file) => file.resolution),
		],
		render: ({ turn, item }, context) => renderTool(turn, item, context),
	},
	warning: { estimate: () => 30, inputs: ({ item }) => [item], render: renderWarning },
	error: {
		estimate: () => 30,
		inputs: ({ turn, item }) => [item, turn.run.stopRequested],
		render: renderError,
	},
	notice: { estimate: () => 30, inputs: ({ item }) => [item], render: renderNotice },
	diagnostic: { estimate: () => 30, inputs: ({ item }) => [item], render: renderDiagnostic },
	unrecognized: { estimate: () => 30, inputs: ({ item }) => [item], render: renderUnrecognized },
};
