/** Where a forked chat came from: its parent chat and the message it branched at (issue #23). */
import { z } from 'zod';

export const ForkOriginSchema = z.object({
	chatId: z.string().max(200),
	title: z.string().max(400),
	turnId: z.string().max(200),
	/** The start of the message the fork branched at, for the Chats list. */
	excerpt: z.string().max(400),
	/** Which of the parent's messages that was (1 is the first); absent on forks saved before. */
	message: z.number().int().positive().optional(),
	/** The zero session the fork was made from. */
	sessionId: z.string().max(200),
});
export type ForkOrigin = z.infer<typeof ForkOriginSchema>;
