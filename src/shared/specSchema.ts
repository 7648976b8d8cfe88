/**
 * The spec review a turn carries (issue #25): the card of a spec zero drafted (`zero exec
 * --use-spec` stopped with `spec_review_required`) with what the user decided, and on a later
 * turn, which spec it implements or redrafts. Saved in the transcript, so a reload shows the card
 * as it was left.
 */
import { z } from 'zod';
import { MAX_NOTE } from '../zero/protocol/specProtocol';

/** `changes-requested`: the user asked for changes; the next draft turn carries them. */
export const SPEC_CARD_STATES = ['draft', 'approved', 'rejected', 'changes-requested'] as const;
export type SpecCardState = (typeof SPEC_CARD_STATES)[number];

export const SpecCardSchema = z.object({
	specId: z.string().max(200),
	/** Display text, already inert (`specDraftFromFinal`). */
	title: z.string().max(400),
	/** `.zero/specs/<id>.md`. */
	relativePath: z.string().max(400),
	/** Absolute, as zero reported it; opened only once it is found inside the workspace. */
	specFilePath: z.string().max(4096),
	draftSessionId: z.string().max(200),
	state: z.enum(SPEC_CARD_STATES),
	/** The approval comment, the reject reason or the changes asked for. */
	note: z.string().max(MAX_NOTE).optional(),
	implementationSessionId: z.string().max(200).optional(),
	/** The turn that implements (approved) or redrafts (changes requested) the spec. */
	nextTurnId: z.string().max(200).optional(),
	decidedAt: z.number().optional(),
});
export type SpecCard = z.infer<typeof SpecCardSchema>;

/** On a turn started from a spec card: what it does with which spec. */
export const SpecLinkSchema = z.object({
	kind: z.enum(['implements', 'redrafts']),
	/** The turn whose card holds the spec. */
	turnId: z.string().max(200),
	specId: z.string().max(200),
	title: z.string().max(400),
	relativePath: z.string().max(400),
});
export type SpecLink = z.infer<typeof SpecLinkSchema>;

export const SpecReviewActionSchema = z.object({
	type: z.literal('spec/review'),
	turnId: z.string(),
	at: z.number().optional(),
	state: z.enum(['approved', 'rejected', 'changes-requested']),
	note: z.string().max(MAX_NOTE).optional(),
	implementationSessionId: z.string().max(200).optional(),
	nextTurnId: z.string().max(200).optional(),
});
export type SpecReviewAction = z.infer<typeof SpecReviewActionSchema>;
