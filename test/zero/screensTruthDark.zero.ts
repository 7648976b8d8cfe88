/** Issue #36's screens with the REAL zero in the dark theme (see truthScreens.ts). */
import { truthScreensTest } from './truthScreens';

truthScreensTest('dark');
