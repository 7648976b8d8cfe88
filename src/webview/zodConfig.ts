/**
 * Imported first by main.ts: the webview's CSP forbids eval, so zod must not even try to compile
 * validators (trying would report a CSP violation). Module bodies run in import order, so this
 * has to run before any module that builds a schema.
 */
import { z } from 'zod';

z.config({ jitless: true });
