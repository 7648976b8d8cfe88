/**
 * What the chat view keeps across reloads of the webview (VS Code's webview state): the draft,
 * which rows are open and which chat it showed (an editor tab reopens that chat after a restart).
 * Read defensively: the state may come from an older version.
 */
import { getState, setState } from './vscodeApi';

/** Most open rows remembered (the oldest are forgotten first). */
const MAX_EXPANDED = 500;

export interface SavedUiState {
	draft: string;
	expanded: string[];
	chatId?: string;
}

export function loadUiState(): SavedUiState {
	const state = getState() as Partial<SavedUiState> | undefined;
	return {
		draft: typeof state?.draft === 'string' ? state.draft : '',
		expanded: Array.isArray(state?.expanded)
			? state.expanded.filter((key): key is string => typeof key === 'string').slice(-MAX_EXPANDED)
			: [],
		...(typeof state?.chatId === 'string' ? { chatId: state.chatId } : {}),
	};
}

export function saveUiState(
	draft: string,
	expanded: Iterable<string>,
	chatId: string | undefined,
): void {
	setState({ draft, expanded: [...expanded].slice(-MAX_EXPANDED), chatId });
}
