/**
 * Lays out side-bar screenshots of the e2e and zero tiers as one image for docs/screens/: a column
 * per theme, a row per screen, each captioned. Drawn by the same Debian Chromium the tests use
 * (no image library): the pictures are placed in a page and the page is captured.
 *
 *   node --import tsx test/harness/composeScreens.ts --out docs/screens/36-x.png \
 *     --title "What the screen shows" [--prefix truth] [--zoom x,y,w,h,scale] screen-a screen-b ...
 *
 * reads `test-output/screenshots/<prefix>-<theme>-<screen>-sidebar.png` for the themes light,
 * dark and high-contrast. `--zoom` crops that region of each picture and scales it up instead
 * (for a detail such as the context meter).
 */
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, screenshotsDir } from './workbench';

const THEMES = ['light', 'dark', 'high-contrast'];

interface Options {
	out: string;
	title: string;
	prefix: string;
	zoom?: { x: number; y: number; width: number; height: number; scale: number };
	screens: string[];
}

function parse(argv: string[]): Options {
	const options: Options = { out: '', title: '', prefix: 'truth', screens: [] };
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index];
		if (arg === '--out') {
			options.out = path.resolve(argv[++index] ?? '');
		} else if (arg === '--title') {
			options.title = argv[++index] ?? '';
		} else if (arg === '--prefix') {
			options.prefix = argv[++index] ?? options.prefix;
		} else if (arg === '--zoom') {
			const [x, y, width, height, scale] = (argv[++index] ?? '').split(',').map(Number);
			options.zoom = { x, y, width, height, scale };
		} else {
			options.screens.push(arg);
		}
	}
	if (!options.out || options.screens.length === 0) {
		throw new Error('usage: composeScreens.ts --out <png> --title <text> <screen>...');
	}
	return options;
}

const escape = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function cell(options: Options, screen: string, theme: string): string {
	const file = path.join(screenshotsDir, `${options.prefix}-${theme}-${screen}-sidebar.png`);
	if (!fs.existsSync(file)) {
		throw new Error(`missing screenshot ${path.relative(process.cwd(), file)}`);
	}
	const data = `data:image/png;base64,${fs.readFileSync(file).toString('base64')}`;
	const zoom = options.zoom;
	const picture = zoom
		? `<div style="width:${zoom.width * zoom.scale}px;height:${zoom.height * zoom.scale}px;overflow:hidden"><img src="${data}" style="transform-origin:0 0;transform:scale(${zoom.scale}) translate(-${zoom.x}px,-${zoom.y}px);image-rendering:pixelated"></div>`
		: `<img src="${data}">`;
	return `<figure>${picture}<figcaption>${escape(theme)}</figcaption></figure>`;
}

async function main(): Promise<void> {
	const options = parse(process.argv.slice(2));
	const rows = options.screens
		.map(
			(screen) =>
				`<section><h2>${escape(screen)}</h2><div class="row">${THEMES.map((theme) => cell(options, screen, theme)).join('')}</div></section>`,
		)
		.join('');
	const html = `<!DOCTYPE html><html><head><style>
		body { margin: 0; padding: 12px; background: #fff; font: 13px sans-serif; color: #222; width: max-content; }
		h1 { font-size: 15px; margin: 0 0 8px; } h2 { font-size: 13px; margin: 10px 0 4px; }
		.row { display: flex; gap: 12px; align-items: flex-start; }
		figure { margin: 0; } figure img { display: block; border: 1px solid #999; }
		figcaption { font-size: 12px; color: #555; }
	</style></head><body><h1>${escape(options.title)}</h1>${rows}</body></html>`;
	const browser = await launchBrowser();
	try {
		const page = await browser.newPage({ deviceScaleFactor: 1 });
		await page.setContent(html, { waitUntil: 'load' });
		fs.mkdirSync(path.dirname(options.out), { recursive: true });
		await page.locator('body').screenshot({ path: options.out });
		console.log(`wrote ${path.relative(process.cwd(), options.out)}`);
	} finally {
		await browser.close();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
});
