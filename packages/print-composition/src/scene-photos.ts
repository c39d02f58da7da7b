import { readFile } from 'node:fs/promises';

/**
 * The five sample photos ("scenes") made for the project (scripts/make-scene-photos.ts draws
 * them; 1620×1080 JPEGs under assets/scenes): Template Studio's JPG sample (the web imports the
 * files as `@flashbooth/print-composition/assets/scenes/scene-N.jpg`) and the template print
 * preview use them, so every sample shows pleasant pictures rather than numbered placeholders.
 */
export const SCENE_PHOTO_COUNT = 5;

/** The file of scene `index` (0-based, wrapping around the five). */
export function scenePhotoUrl(index: number): URL {
  const n = (((index % SCENE_PHOTO_COUNT) + SCENE_PHOTO_COUNT) % SCENE_PHOTO_COUNT) + 1;
  return new URL(`../assets/scenes/scene-${n}.jpg`, import.meta.url);
}

/** Scene `index` (0-based, wrapping) as JPEG bytes. */
export function scenePhoto(index: number): Promise<Buffer> {
  return readFile(scenePhotoUrl(index));
}
