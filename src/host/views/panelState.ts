/** The webview state a restored editor tab gets back (the chat view's saved UI state). */
export function isUiState(state: unknown): state is { chatId?: string } {
	return (
		typeof state === 'object' &&
		state !== null &&
		(typeof (state as { chatId?: unknown }).chatId === 'string' ||
			(state as { chatId?: unknown }).chatId === undefined)
	);
}
