/**
 * What a chat view gets of a transcript: a copy without the bulk (tool arguments and output), and
 * the details of one tool card on request.
 */
import { z } from 'zod';
import { findTurn } from './transcript';
import type { ToolApproval, ToolItem, Transcript } from './transcriptSchema';

/** Longest tool output or argument string a chat view shows; the full text opens in an editor. */
export const VIEW_PREVIEW_CHARS = 4000;
/** Argument and output strings are cut to this in a view snapshot (enough for summaries and notices). */
const SNAPSHOT_ARG_CHARS = 240;

function previewString(value: string, max: number): string {
	return value.length > max ? value.slice(0, max) : value;
}

function summaryArgs(args: unknown): unknown {
	if (typeof args === 'string') {
		return previewString(args, SNAPSHOT_ARG_CHARS);
	}
	if (typeof args !== 'object' || args === null || Array.isArray(args)) {
		return undefined;
	}
	const kept: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(args)) {
		if (typeof value === 'string') {
			kept[key] = previewString(value, SNAPSHOT_ARG_CHARS);
		} else if (typeof value === 'number' || typeof value === 'boolean') {
			kept[key] = value;
		}
	}
	return kept;
}

/**
 * A waiting approval reaches the view as zero sent it: the card shows zero's exact request, never
 * the snapshot's cut of the arguments. Once settled, the card no longer shows it.
 */
function viewApproval(approval: ToolApproval): ToolApproval {
	if (approval.state === 'waiting') {
		return approval;
	}
	const settled = { ...approval };
	delete settled.rawInput;
	return settled;
}

/** A tool item's arguments and output as a view shows them when the card is expanded. */
export const ToolDetailsSchema = z.object({
	args: z.string(),
	output: z.string(),
	/** Full lengths, so the view can say that more opens in an editor. */
	argsLength: z.number(),
	outputLength: z.number(),
});
export type ToolDetails = z.infer<typeof ToolDetailsSchema>;

/**
 * Indented JSON when it fits the preview, else compact: indentation alone can push the end of
 * deeply nested arguments (and the marker where they were cut) out of the preview.
 */
function argsText(args: unknown): string {
	if (args === undefined) {
		return '';
	}
	const pretty = JSON.stringify(args, null, 2);
	return pretty.length > VIEW_PREVIEW_CHARS ? JSON.stringify(args) : pretty;
}

export function toolDetails(item: ToolItem): ToolDetails {
	const args = typeof item.args === 'string' ? item.args : argsText(item.args);
	const output = item.result?.output ?? '';
	return {
		args: previewString(args, VIEW_PREVIEW_CHARS),
		output: previewString(output, VIEW_PREVIEW_CHARS),
		argsLength: args.length,
		outputLength: output.length,
	};
}

export function findToolDetails(
	transcript: Transcript,
	turnId: string,
	itemId: string,
): ToolDetails | undefined {
	const item = findTurn(transcript, turnId)?.run.items.find((candidate) => candidate.id === itemId);
	return item?.kind === 'tool' ? toolDetails(item) : undefined;
}

/**
 * The copy of a transcript a chat view gets in a snapshot: the same structure, but tool cards
 * carry only what a collapsed card shows (a short summary of the arguments, the status and
 * markers, no output). An expanded card asks the host for its details. A 50 MB transcript then
 * crosses the webview boundary as a fraction of its size; the host keeps everything.
 */
export function toViewTranscript(transcript: Transcript): Transcript {
	return {
		...transcript,
		turns: transcript.turns.map((turn) => ({
			...turn,
			run: {
				...turn.run,
				items: turn.run.items.map((item) =>
					item.kind === 'tool'
						? {
								...item,
								args: summaryArgs(item.args),
								detailsOmitted: true,
								approval: item.approval && viewApproval(item.approval),
								// The start of the output stays: permission notices read zero's refusal text.
								result: item.result && {
									...item.result,
									output: previewString(item.result.output, SNAPSHOT_ARG_CHARS),
									fullLength: item.result.output.length,
								},
							}
						: item,
				),
			},
		})),
	};
}
