/** Issue #36's screens with the REAL zero in the high-contrast theme (see truthScreens.ts). */
import { truthScreensTest } from './truthScreens';

truthScreensTest('high-contrast');
