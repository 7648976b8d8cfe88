/** The chat webviews on screen (side view and editor tabs), for tests of many chats at once. */
import type { Frame, Page } from 'playwright-core';
import { frameIsVisible, pickQuickInputRow, startingCommand } from './workbench';
import { waitUntil } from './wait';

/** Every visible chat webview (the side view and each editor tab that is on screen). */
export async function visibleChats(page: Page): Promise<Frame[]> {
	const frames: Frame[] = [];
	for (const frame of page.frames()) {
		if (frame === page.mainFrame() || frame.isDetached()) {
			continue;
		}
		try {
			if ((await frame.$('#app[data-state="ready"]')) && (await frameIsVisible(frame))) {
				frames.push(frame);
			}
		} catch {
			// navigated or detached meanwhile
		}
	}
	return frames;
}

export async function promptsOf(frame: Frame): Promise<string[]> {
	return frame
		.locator('[data-kind="prompt"]')
		.allInnerTexts()
		.catch(() => []);
}

/** The visible chat that shows no prompt yet (a new chat), once there are `count` visible chats. */
export async function emptyChat(page: Page, count: number, what: string): Promise<Frame> {
	let found: Frame | undefined;
	await waitUntil(
		async () => {
			const frames = await visibleChats(page);
			if (frames.length !== count) {
				return false;
			}
			for (const frame of frames) {
				if ((await promptsOf(frame)).length === 0) {
					found = frame;
					return true;
				}
			}
			return false;
		},
		30_000,
		what,
		{
			seen: async () =>
				JSON.stringify(await Promise.all((await visibleChats(page)).map(promptsOf))),
		},
	);
	return found as Frame;
}

/** "Zero: New Chat" in the view used last, answering the folder pick with `name`. */
export async function newChatInFolder(page: Page, name: string, views: number): Promise<Frame> {
	await pickQuickInputRow(page, {
		name: `the folder of a new chat (${name})`,
		open: startingCommand(page, 'zero.newChat'),
		label: name,
	});
	const frame = await emptyChat(page, views, `the new chat in ${name}`);
	await frame.locator('#app[data-readiness="ready"]').waitFor({ state: 'attached' });
	const header = (): Promise<string> =>
		frame
			.locator('.chat-folder')
			.innerText()
			.catch(() => '');
	await waitUntil(
		async () => (await header()).includes(name),
		15_000,
		`the chat header to name ${name}`,
		{ seen: header },
	);
	return frame;
}
