import { z } from 'zod';
import { hasNoNul, idTextSchema, listOf, nulMessage, TimestampSchema } from './common.js';
import { PASSKEY_MESSAGES, PASSKEY_NAME_MAX_LENGTH } from './passkey-rules.js';

export const PasskeyNameSchema = z
  .string({ error: PASSKEY_MESSAGES.nameRequired })
  .trim()
  .min(1, PASSKEY_MESSAGES.nameRequired)
  .refine(hasNoNul, nulMessage('Passkey name'))
  .max(PASSKEY_NAME_MAX_LENGTH, PASSKEY_MESSAGES.nameTooLong);
export type PasskeyName = z.infer<typeof PasskeyNameSchema>;

/** One of the caller's passkeys as the profile lists it. */
export const PasskeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: TimestampSchema,
  last_used_at: TimestampSchema.nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;
export const PasskeyListSchema = listOf(PasskeySchema);
export type PasskeyList = z.infer<typeof PasskeyListSchema>;

export const PasskeyIdParamSchema = z.object({ id: idTextSchema(PASSKEY_MESSAGES.badId) });
export type PasskeyIdParam = z.infer<typeof PasskeyIdParamSchema>;
export const PasskeyRenameSchema = z.object({ name: PasskeyNameSchema });
export type PasskeyRename = z.infer<typeof PasskeyRenameSchema>;

/**
 * The options for `navigator.credentials.create()` / `.get()` in their JSON form
 * (`PublicKeyCredentialCreationOptionsJSON` / `…RequestOptionsJSON`), handed to
 * @simplewebauthn/browser as they are.
 */
export const PasskeyOptionsResponseSchema = z.object({
  options: z.looseObject({ challenge: z.string(), timeout: z.number().optional() }),
});
export type PasskeyOptionsResponse = z.infer<typeof PasskeyOptionsResponseSchema>;

/** base64url text of a bounded size: what every binary field of a WebAuthn response is. */
const base64url = (max: number) =>
  z
    .string({ error: PASSKEY_MESSAGES.badResponse })
    .min(1, PASSKEY_MESSAGES.badResponse)
    .max(max, PASSKEY_MESSAGES.badResponse)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, PASSKEY_MESSAGES.badResponse);

const credentialFields = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key', { error: PASSKEY_MESSAGES.badResponse }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z
    .enum(['platform', 'cross-platform'], { error: PASSKEY_MESSAGES.badResponse })
    .optional(),
};

/** What `startRegistration()` returns (`RegistrationResponseJSON`), bounded. */
export const PasskeyRegistrationResponseSchema = z.object({
  ...credentialFields,
  response: z.object(
    {
      clientDataJSON: base64url(4000),
      attestationObject: base64url(20_000),
      transports: z
        .array(
          z
            .string({ error: PASSKEY_MESSAGES.badResponse })
            .max(20, PASSKEY_MESSAGES.badResponse)
            .regex(/^[a-z-]+$/, PASSKEY_MESSAGES.badResponse),
        )
        .max(10, PASSKEY_MESSAGES.badResponse)
        .optional(),
      authenticatorData: base64url(20_000).optional(),
      publicKey: base64url(4000).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
    },
    { error: PASSKEY_MESSAGES.badResponse },
  ),
});
export type PasskeyRegistrationResponse = z.infer<typeof PasskeyRegistrationResponseSchema>;

export const PasskeyRegistrationRequestSchema = z.object({
  name: PasskeyNameSchema,
  credential: PasskeyRegistrationResponseSchema,
});
export type PasskeyRegistrationRequest = z.infer<typeof PasskeyRegistrationRequestSchema>;

/** What `startAuthentication()` returns (`AuthenticationResponseJSON`), bounded. */
export const PasskeyAuthenticationResponseSchema = z.object({
  ...credentialFields,
  response: z.object(
    {
      clientDataJSON: base64url(4000),
      authenticatorData: base64url(20_000),
      signature: base64url(2000),
      userHandle: base64url(200).optional(),
    },
    { error: PASSKEY_MESSAGES.badResponse },
  ),
});
export type PasskeyAuthenticationResponse = z.infer<typeof PasskeyAuthenticationResponseSchema>;

export const PasskeySignInRequestSchema = z.object({
  credential: PasskeyAuthenticationResponseSchema,
});
export type PasskeySignInRequest = z.infer<typeof PasskeySignInRequestSchema>;
