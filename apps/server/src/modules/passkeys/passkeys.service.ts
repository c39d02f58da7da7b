import { createHmac } from 'node:crypto';
import {
  type Passkey,
  PASSKEYS_PER_ACCOUNT_MAX,
  type PasskeyList,
  type PasskeyOptionsResponse,
  type PasskeyRegistrationRequest,
  type PasskeySignInRequest,
  type Pool,
} from '@flashbooth/contracts';
import {
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type VerifiedAuthenticationResponse,
  type VerifiedRegistrationResponse,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/postgres-errors.js';
import type { PasskeyRow } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { AuthService, IssuedSession } from '../auth/auth.service.js';
import type { UsersService } from '../users/users.service.js';
import {
  type ChallengeClaims,
  challengeOfClientData,
  type ChallengePurpose,
  type PasskeyChallenges,
} from './passkey-challenge.js';
import type { PasskeysRepository } from './passkeys.repository.js';

/** ES256, EdDSA and RS256: what platform authenticators and security keys make. */
const ALGORITHMS = [-7, -8, -257];

const MESSAGES = {
  challenge: 'This passkey request has expired or was already used. Please try again.',
  notVerified: 'This passkey could not be verified. Please try again.',
  unknown:
    'This passkey is not registered for this sign-in. Sign in with your phone number, then add it from your profile.',
  duplicate: 'This passkey is already registered.',
  tooMany: `You can have at most ${PASSKEYS_PER_ACCOUNT_MAX} passkeys. Remove one to add another.`,
  notFound: 'Passkey not found.',
} as const;

const badRequest = (message: string) => new AppError('bad_request', message);

/**
 * Passkeys (WebAuthn, @simplewebauthn/server) of both pools: a signed-in person registers,
 * lists, renames and removes their own; anyone signs in with one (discoverable credentials, so
 * no phone number is asked for) and gets the very session a code sign-in gives
 * (`AuthService.issueSessionFor`, under the same sign-in policy).
 */
export class PasskeysService {
  constructor(
    private readonly deps: {
      db: Database;
      repository: PasskeysRepository;
      users: UsersService;
      auth: AuthService;
      challenges: PasskeyChallenges;
      webauthn: Config['webauthn'];
      /** Keys the user handles (`user.id` of a credential): no phone or row id leaves the server. */
      userHandleKey: Buffer;
      now: () => Date;
      log: FastifyBaseLogger;
    },
  ) {}

  private toDto(row: PasskeyRow): Passkey {
    return {
      id: row.id,
      name: row.name,
      created_at: toApiTimestamp(row.createdAt),
      last_used_at: row.lastUsedAt ? toApiTimestamp(row.lastUsedAt) : null,
    };
  }

  /** The stable, opaque WebAuthn user handle of an account (32 bytes). */
  private userHandle(pool: Pool, userId: number): Uint8Array<ArrayBuffer> {
    return new Uint8Array(
      createHmac('sha256', this.deps.userHandleKey).update(`${pool}:${userId}`).digest(),
    );
  }

  /** The challenge a response carries, when this server issued it for `purpose` in `pool`. */
  private openChallenge(
    clientDataJSON: string,
    purpose: ChallengePurpose,
    pool: Pool,
  ): { challenge: string; claims: ChallengeClaims } {
    const challenge = challengeOfClientData(clientDataJSON);
    const claims = challenge ? this.deps.challenges.open(challenge) : null;
    if (!challenge || !claims || claims.purpose !== purpose || claims.pool !== pool) {
      throw badRequest(MESSAGES.challenge);
    }
    return { challenge, claims };
  }

  async list(claims: AccessClaims): Promise<PasskeyList> {
    const me = await this.deps.users.caller(claims);
    const rows = await this.deps.repository.listOf(me.id);
    return { items: rows.map((row) => this.toDto(row)), total_count: rows.length };
  }

  /** Options for `navigator.credentials.create()`: a discoverable, user-verified credential. */
  async registrationOptions(claims: AccessClaims): Promise<PasskeyOptionsResponse> {
    const me = await this.deps.users.caller(claims);
    const existing = await this.deps.repository.listOf(me.id);
    if (existing.length >= PASSKEYS_PER_ACCOUNT_MAX)
      throw new AppError('conflict', MESSAGES.tooMany);
    const { webauthn, challenges } = this.deps;
    const options = await generateRegistrationOptions({
      rpName: webauthn.rpName,
      rpID: webauthn.rpId,
      // What the browser's passkey list shows: the staff pool's are told apart.
      userName: me.pool === 'enterprise' ? `${me.phone} (Venue Portal)` : me.phone,
      userDisplayName: me.name,
      userID: this.userHandle(me.pool, me.id),
      challenge: challenges.issue('register', me.pool, me.id),
      timeout: challenges.ttlMs,
      attestationType: 'none',
      // One passkey per authenticator: the browser refuses to make a second one there.
      excludeCredentials: existing.map((row) => ({
        id: row.credentialId,
        transports: row.transports,
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    return { options: { ...options } };
  }

  async register(claims: AccessClaims, input: PasskeyRegistrationRequest): Promise<Passkey> {
    const me = await this.deps.users.caller(claims);
    const { credential } = input;
    const { challenge, claims: issued } = this.openChallenge(
      credential.response.clientDataJSON,
      'register',
      me.pool,
    );
    if (issued.userId !== me.id) throw badRequest(MESSAGES.challenge);
    let verification: VerifiedRegistrationResponse;
    try {
      verification = await verifyRegistrationResponse({
        response: {
          ...credential,
          response: {
            ...credential.response,
            transports: credential.response.transports as AuthenticatorTransport[] | undefined,
          },
        },
        expectedChallenge: challenge,
        expectedOrigin: this.deps.webauthn.origins,
        expectedRPID: this.deps.webauthn.rpId,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch (error) {
      this.deps.log.info({ err: error, userId: me.id }, 'passkey registration refused');
      throw badRequest(MESSAGES.notVerified);
    }
    if (!verification.verified) throw badRequest(MESSAGES.notVerified);
    const made = verification.registrationInfo.credential;
    const at = this.deps.now();
    try {
      const row = await this.deps.db.transaction(async (tx) => {
        const repository = this.deps.repository.with(tx);
        if (!(await repository.spendChallenge(challenge, issued.expiresAt))) {
          throw badRequest(MESSAGES.challenge);
        }
        if ((await repository.countOf(me.id)) >= PASSKEYS_PER_ACCOUNT_MAX) {
          throw new AppError('conflict', MESSAGES.tooMany);
        }
        return repository.insert({
          userId: me.id,
          pool: me.pool,
          credentialId: made.id,
          publicKey: Buffer.from(made.publicKey).toString('base64url'),
          counter: made.counter,
          transports: made.transports ?? [],
          name: input.name,
          at,
        });
      });
      return this.toDto(row);
    } catch (error) {
      if (isUniqueViolation(error, 'passkeys_credential_id_key')) {
        throw new AppError('conflict', MESSAGES.duplicate);
      }
      throw error;
    }
  }

  async rename(claims: AccessClaims, id: number, name: string): Promise<Passkey> {
    const me = await this.deps.users.caller(claims);
    const row = await this.deps.repository.rename(me.id, id, name);
    if (!row) throw notFound(MESSAGES.notFound);
    return this.toDto(row);
  }

  /** Removes one of the caller's own passkeys; anyone else's is "not found". */
  async remove(claims: AccessClaims, id: number): Promise<void> {
    const me = await this.deps.users.caller(claims);
    if (!(await this.deps.repository.delete(me.id, id))) throw notFound(MESSAGES.notFound);
  }

  /** Options for `navigator.credentials.get()`: no allow-list, the browser offers its passkeys. */
  async signInOptions(pool: Pool): Promise<PasskeyOptionsResponse> {
    const { webauthn, challenges } = this.deps;
    const options = await generateAuthenticationOptions({
      rpID: webauthn.rpId,
      challenge: challenges.issue('sign-in', pool),
      timeout: challenges.ttlMs,
      userVerification: 'required',
    });
    return { options: { ...options } };
  }

  /**
   * Checks the assertion against the stored public key, origin, relying party, challenge and
   * counter, spends the challenge and records the use, then issues the session.
   */
  async signIn(pool: Pool, input: PasskeySignInRequest): Promise<IssuedSession> {
    const { credential } = input;
    const { challenge, claims: issued } = this.openChallenge(
      credential.response.clientDataJSON,
      'sign-in',
      pool,
    );
    const stored = await this.deps.repository.findByCredentialId(credential.id);
    if (!stored || stored.pool !== pool) throw badRequest(MESSAGES.unknown);
    const handle = credential.response.userHandle;
    if (
      handle !== undefined &&
      handle !== Buffer.from(this.userHandle(pool, stored.userId)).toString('base64url')
    ) {
      throw badRequest(MESSAGES.notVerified);
    }
    let verification: VerifiedAuthenticationResponse;
    try {
      verification = await verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: challenge,
        expectedOrigin: this.deps.webauthn.origins,
        expectedRPID: this.deps.webauthn.rpId,
        credential: {
          id: stored.credentialId,
          publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
          counter: stored.counter,
          transports: stored.transports,
        },
        requireUserVerification: true,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      if (message.startsWith('Response counter value')) {
        // A counter that did not grow: the passkey may have been copied.
        this.deps.log.warn(
          { passkeyId: stored.id, userId: stored.userId },
          'passkey counter went back',
        );
      } else {
        this.deps.log.info({ err: error, passkeyId: stored.id }, 'passkey sign-in refused');
      }
      throw badRequest(MESSAGES.notVerified);
    }
    if (!verification.verified) throw badRequest(MESSAGES.notVerified);
    const { newCounter } = verification.authenticationInfo;
    const at = this.deps.now();
    await this.deps.db.transaction(async (tx) => {
      const repository = this.deps.repository.with(tx);
      const current = await repository.lockById(stored.id);
      if (!current) throw badRequest(MESSAGES.unknown);
      // Checked again under the row's lock: two sign-ins at once cannot both pass with one count.
      if ((newCounter > 0 || current.counter > 0) && newCounter <= current.counter) {
        this.deps.log.warn(
          { passkeyId: stored.id, userId: stored.userId },
          'passkey counter went back',
        );
        throw badRequest(MESSAGES.notVerified);
      }
      if (!(await repository.spendChallenge(challenge, issued.expiresAt))) {
        throw badRequest(MESSAGES.challenge);
      }
      await repository.recordUse(stored.id, newCounter, at);
    });
    return this.deps.auth.issueSessionFor(pool, stored.userId, 'passkey');
  }

  /** Whether the account has a passkey (REQUIRE_PASSKEY_FOR_MONEY_STAFF). */
  hasPasskey(userId: number): Promise<boolean> {
    return this.deps.repository.exists(userId);
  }

  /** Spent challenges that have expired (the sign-in purge): deleted, or counted when `dryRun`. */
  purgeChallenges(options: { dryRun: boolean }): Promise<number> {
    return this.deps.repository.purgeSpentChallenges(this.deps.now(), options.dryRun);
  }
}
