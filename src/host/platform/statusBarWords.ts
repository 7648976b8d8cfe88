/**
 * A status bar item's accessible name: its text without the `$(icon)` codes, which a screen
 * reader would otherwise read out ("loading~spin Zero: 2 running").
 */
export function statusBarLabel(text: string): string {
	return text
		.replace(/\$\([a-z0-9~-]+\)/gi, '')
		.replace(/\s+/g, ' ')
		.trim();
}
