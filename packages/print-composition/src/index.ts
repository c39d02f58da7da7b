// Print composition, shared by the booth agent (its prints), the server (demo artwork, the
// low-res previews of delivered media) and the benchmarks: slots, filters, the composed print.
export * from './template.js';
export { FILTER_NAMES, knownFilter, type FilterName } from './filters.js';
export { composePrint, type ComposeOptions } from './compose.js';
export { makeLowresPreview, type PreviewOptions } from './preview.js';
export { samplePhoto, type SamplePhotoOptions } from './sample-photo.js';
export { SCENE_PHOTO_COUNT, scenePhoto, scenePhotoUrl } from './scene-photos.js';
