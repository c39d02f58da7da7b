// Load tests only (fleet.ts with BOOTH_FLEET_REUSE_PRINT): a fleet's booths share one photo per
// shot number and one print per template, each made once. A simulated capture otherwise draws a
// full-size photo (an SVG rendered by sharp, about 50–80 ms of CPU) and composes the full-size
// print (about 180–200 ms), so a hundred booths on the load generator's machine used more CPU
// than the servers they were measuring (docs/benchmarks.md, issue 40). The server is sent the
// same bytes it would get from a booth that composed them: the print's size, format and the
// work its preview takes are unchanged; only the booth's own drawing is skipped.
import { createHash } from 'node:crypto';
import type { composePrint } from '@flashbooth/print-composition';
import type { Camera } from './camera/camera.js';

type Compose = typeof composePrint;

/** `camera` whose photo number n is taken once and handed out again for every later shot n. */
export function reusedPhotoCamera(camera: Camera): Camera {
  const photos = new Map<number, Promise<Buffer>>();
  const reused: Camera = {
    driver: camera.driver ?? 'simulated',
    capture(index) {
      let photo = photos.get(index);
      if (!photo) {
        photo = camera.capture(index);
        photos.set(index, photo);
        // A failed shot is not kept: the next capture tries the camera again.
        photo.catch(() => photos.delete(index));
      }
      return photo;
    },
  };
  if (camera.record) reused.record = (request) => camera.record!(request);
  return reused;
}

/**
 * `compose` once per template (its layout, filters and foreground) and number of photos; later
 * captures with the same template get the same print.
 */
export function reusedPrint(compose: Compose): Compose {
  const prints = new Map<string, Promise<Buffer>>();
  return (template, photos, options) => {
    const { foreground, ...layout } = template;
    const art = foreground ? createHash('sha256').update(foreground).digest('hex') : null;
    const key = JSON.stringify([layout, art, photos.length]);
    let print = prints.get(key);
    if (!print) {
      print = compose(template, photos, options);
      prints.set(key, print);
      print.catch(() => prints.delete(key));
    }
    return print;
  };
}
