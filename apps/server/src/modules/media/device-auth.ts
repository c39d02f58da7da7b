import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { deviceSecretMatches } from '../../security/device-credentials.js';
import type { MediaRepository } from './media.repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the device hook on the booth's own HTTP calls. */
    device?: { id: number; thingName: string };
  }
}

const THING_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Compared when the thing name is unknown, so a miss costs the same as a wrong secret. */
const DUMMY_HASH = '0'.repeat(64);

const refused = () =>
  new AppError('unauthorized', 'The photobooth credentials are missing or wrong.');

/**
 * The booth's HTTP calls carry `Authorization: Device <thing_name>:<secret>`, the same
 * credentials it uses for the broker, checked the same way (SHA-256, constant time).
 */
export function createDeviceAuthenticate(media: Pick<MediaRepository, 'deviceByThingName'>) {
  return async (request: FastifyRequest): Promise<void> => {
    const match = /^Device\s+([^:\s]+):(\S+)$/.exec(request.headers.authorization ?? '');
    if (!match) throw refused();
    const [, thingName, secret] = match as unknown as [string, string, string];
    const device = THING_NAME.test(thingName)
      ? await media.deviceByThingName(thingName)
      : undefined;
    const matches = deviceSecretMatches(secret, device?.secretHash ?? DUMMY_HASH);
    if (!device || !matches) throw refused();
    request.device = { id: device.id, thingName };
  };
}
