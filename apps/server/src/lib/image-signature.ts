/**
 * Whether a file really is what its content type says, by its first bytes (magic numbers), not
 * just labelled so: JPEG (FF D8 FF) and PNG (89 P N G \r \n 1A \n). Uploads of template pictures
 * and organization logos are checked with it before they are kept.
 */
export function hasImageSignature(contentType: string, body: Buffer): boolean {
  if (contentType === 'image/jpeg') {
    return body.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));
  }
  if (contentType === 'image/png') {
    return body
      .subarray(0, 8)
      .equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  }
  return false;
}
