// The five scene photos made for the project (packages/print-composition/assets/scenes), as
// hashed static files of the build; only this lazy Studio route refers to them.
import scene1 from '@flashbooth/print-composition/assets/scenes/scene-1.jpg?url';
import scene2 from '@flashbooth/print-composition/assets/scenes/scene-2.jpg?url';
import scene3 from '@flashbooth/print-composition/assets/scenes/scene-3.jpg?url';
import scene4 from '@flashbooth/print-composition/assets/scenes/scene-4.jpg?url';
import scene5 from '@flashbooth/print-composition/assets/scenes/scene-5.jpg?url';

/** Absolute, so the worker (whose base is its own script) fetches the same files. */
export function samplePhotoUrls(): string[] {
  return [scene1, scene2, scene3, scene4, scene5].map((url) =>
    new URL(url, window.location.href).toString(),
  );
}
