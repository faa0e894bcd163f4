import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Resvg, initWasm } from '@resvg/resvg-wasm';

/** The longest side of a rasterised SVG, so a huge declared size cannot exhaust memory. */
export const MAX_RASTER_SIDE = 2048;

let ready: Promise<void> | undefined;

/** Loads the resvg WASM module once, on first use (most runs never view an SVG). */
function ensureResvg(): Promise<void> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasm = await readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm'));
    await initWasm(wasm);
  })();
  return ready;
}

/** A rendered PNG and its pixel size. */
export interface RasterImage {
  png: Uint8Array;
  width: number;
  height: number;
}

/**
 * Renders SVG text to PNG with resvg (pure WASM: no file or network access, so external
 * references in the SVG stay unresolved). Scales down to at most 2048 px on the longest side.
 * Throws on SVG that resvg cannot parse; callers turn that into a tool error.
 */
export async function rasteriseSvg(svg: Uint8Array): Promise<RasterImage> {
  await ensureResvg();
  const probe = new Resvg(svg, { font: { loadSystemFonts: false } });
  const width = probe.width;
  const height = probe.height;
  probe.free();
  const longest = Math.max(width, height);
  const fitTo =
    longest <= MAX_RASTER_SIDE
      ? ({ mode: 'original' } as const)
      : width >= height
        ? ({ mode: 'width', value: MAX_RASTER_SIDE } as const)
        : ({ mode: 'height', value: MAX_RASTER_SIDE } as const);
  const renderer = new Resvg(svg, { font: { loadSystemFonts: false }, fitTo });
  try {
    const image = renderer.render();
    try {
      return { png: image.asPng(), width: image.width, height: image.height };
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}
