/** The `--permission-mode` values this extension runs zero with. */
import { z } from 'zod';

/** Modes a user can pick for chat runs. */
export const CHAT_PERMISSION_MODES = ['plan', 'auto', 'member', 'ask'] as const;
export const ChatPermissionModeSchema = z.enum(CHAT_PERMISSION_MODES);
export type ChatPermissionMode = z.infer<typeof ChatPermissionModeSchema>;

/** Every mode a run can use; `unsafe` is only reachable through a confirmed re-run. */
export const RUN_PERMISSION_MODES = [...CHAT_PERMISSION_MODES, 'unsafe'] as const;
export const RunPermissionModeSchema = z.enum(RUN_PERMISSION_MODES);
export type RunPermissionMode = z.infer<typeof RunPermissionModeSchema>;

export const DEFAULT_CHAT_PERMISSION_MODE: ChatPermissionMode = 'member';
