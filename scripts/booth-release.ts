// `npm run booth:release -- <version> [folder]`: packs the booth agent of this checkout as a
// release file, flashbooth-<version>.tar.gz, to upload under SW Releases with that version
// (apps/booth-agent/README.md, "Updating"). The same packing as the server's own release.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RELEASE_VERSION_MAX, RELEASE_VERSION_PATTERN } from '@flashbooth/contracts';
import {
  boothReleaseFileName,
  packBoothRelease,
} from '../apps/server/src/modules/software/booth-release.js';

const [version, folder = '.'] = process.argv.slice(2);
if (!version || !RELEASE_VERSION_PATTERN.test(version) || version.length > RELEASE_VERSION_MAX) {
  console.error(
    'Usage: npm run booth:release -- <version> [folder]\n' +
      '<version>: letters, digits, dots, dashes, underscores and plus signs, e.g. 2.1.0',
  );
  process.exit(2);
}
const release = await packBoothRelease({ version });
const file = path.resolve(folder, boothReleaseFileName(version));
await writeFile(file, release.bytes);
console.log(`${file}\n  ${release.bytes.length} bytes, SHA-256 ${release.sha256}`);
console.log('Upload it under SW Releases as version', version);
