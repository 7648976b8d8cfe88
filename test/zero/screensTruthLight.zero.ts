/** Issue #36's screens with the REAL zero in the light theme (see truthScreens.ts). */
import { truthScreensTest } from './truthScreens';

truthScreensTest('light');
