/** Ids for chats, turns and inspections: unique in a workspace, sortable by creation time. */
let idCounter = 0;

export function newId(prefix: string, now: number): string {
	idCounter = (idCounter + 1) % 1_000_000;
	return `${prefix}${now.toString(36)}${idCounter.toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
}
