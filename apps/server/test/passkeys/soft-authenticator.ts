import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey authenticator for tests: ES256 (P-256) keys from node:crypto, 'none'
 * attestation, and the exact bytes WebAuthn defines (authenticator data, client data, COSE key,
 * CBOR attestation object, DER signature), so the server verifies it as it would a real one.
 * Each test can tamper with what it sends: origin, RP id, counter, flags.
 */
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface CeremonyOptions {
  /** The page's origin as the browser reports it. */
  origin?: string;
  /** The RP id the authenticator hashes into its data. */
  rpId?: string;
  /** Overrides the signature counter this time. */
  counter?: number;
  /** Leaves out user verification. */
  noUserVerification?: boolean;
  /** Replaces the challenge (e.g. one made up or of another ceremony). */
  challenge?: string;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private userHandle: string | undefined;
  /** The signature counter; stays 0 when `counting` is false (as many platform passkeys do). */
  counter = 0;

  constructor(private readonly defaults: { origin: string; rpId: string; counting?: boolean }) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
  }

  private nextCounter(options: CeremonyOptions): number {
    if (options.counter !== undefined) return options.counter;
    if (this.defaults.counting !== false) this.counter += 1;
    return this.counter;
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Uint8Array) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      count,
      ...(attested ? [attested] : []),
    ]);
  }

  private clientData(type: string, challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** What `startRegistration()` would return for these options. */
  register(options: CreationOptions, tamper: CeremonyOptions = {}) {
    const rpId = tamper.rpId ?? options.rp.id ?? this.defaults.rpId;
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const flags = FLAG_UP | FLAG_AT | (tamper.noUserVerification ? 0 : FLAG_UV);
    const authData = this.authData(rpId, flags, this.nextCounter(tamper), attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const clientData = this.clientData(
      'webauthn.create',
      tamper.challenge ?? options.challenge,
      tamper.origin ?? this.defaults.origin,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientData),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /** What `startAuthentication()` would return for these options. */
  authenticate(options: RequestOptions, tamper: CeremonyOptions = {}) {
    const rpId = tamper.rpId ?? options.rpId ?? this.defaults.rpId;
    const flags = FLAG_UP | (tamper.noUserVerification ? 0 : FLAG_UV);
    const authData = this.authData(rpId, flags, this.nextCounter(tamper));
    const clientData = this.clientData(
      'webauthn.get',
      tamper.challenge ?? options.challenge,
      tamper.origin ?? this.defaults.origin,
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      this.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientData),
        authenticatorData: b64(authData),
        signature: b64(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }
}
