import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Transaction } from 'kysely';
import type { AuthResult } from '@portal/contract/auth';
import {
  PASSKEY_CEREMONY_SECONDS,
  PASSKEY_MESSAGES,
  PASSKEYS_PER_USER,
  type AddPasskeyRequest,
  type Passkey,
  type PasskeyOptionsResponse,
  type PasskeySignInRequest,
} from '@portal/contract/passkeys';
import { describeBrowser } from '@portal/contract/security';
import type { DB } from '../../db/schema.ts';
import type { Auth } from '../../lib/access.ts';
import type { RequestCtx } from '../../lib/audit.repository.ts';
import { AppError, unauthorized } from '../../lib/errors.ts';
import type { MailTexts } from '../../lib/mail-texts/index.ts';
import type { OtpService } from '../otp/index.ts';
import type { PasskeysRepository } from './passkeys.repository.ts';

/** Who the passkeys are for: the portal's domain (the RP ID) and the origin its pages are served from. */
export type RelyingParty = { id: string; name: string; origins: string[] };

type SignIn = {
  withPasskey(owner: { partnerId: string; userId: string }, ctx: RequestCtx, use: (trx: Transaction<DB>) => Promise<boolean>): Promise<AuthResult>;
  confirmSecondFactor(owner: { partnerId: string; userId: string }, code: string, ctx: RequestCtx): Promise<void>;
};

export type PasskeysDeps = { repo: PasskeysRepository; rp: RelyingParty; otp: Pick<OtpService, 'authorise'>; signIn: SignIn; now: () => number };

const owner = (auth: Auth) => ({ partnerId: auth.partnerId, userId: auth.userId });
const refused = () => unauthorized(PASSKEY_MESSAGES.notAccepted, 'PasskeyRefused');
const expired = () => new AppError(400, 'PasskeyExpired', PASSKEY_MESSAGES.expired);
const tooMany = () => new AppError(409, 'TooManyPasskeys', PASSKEY_MESSAGES.tooMany);
const notFound = () => new AppError(404, 'PasskeyNotFound', PASSKEY_MESSAGES.notFound);

/** The bytes of a user id (a uuid), as WebAuthn keeps it in the passkey (the user handle). */
const userHandle = (userId: string) => new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
const userIdOfHandle = (handle: string) => {
  const hex = Buffer.from(handle, 'base64url').toString('hex');
  return hex.length === 32 ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : undefined;
};

/** A passkey as the portal shows it. */
function toPasskey(r: Awaited<ReturnType<PasskeysRepository['listOwn']>>[number]): Passkey {
  return {
    id: r.id,
    name: r.name,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    synced: r.synced,
    browser: describeBrowser(r.user_agent),
    disabled: r.disabled_at !== null,
  };
}

/**
 * Passkeys: adding one (its options, then the browser's answer with the e-mailed code), renaming and removing (with
 * the second factor) one's own, and signing in with one. The verifier is SimpleWebAuthn's; user verification
 * (the device's PIN or biometrics) is required, so that a passkey alone is both factors.
 */
export function createPasskeysService(deps: PasskeysDeps) {
  const { repo, rp } = deps;
  const now = () => new Date(deps.now());
  const until = () => new Date(deps.now() + PASSKEY_CEREMONY_SECONDS * 1000);

  /** Takes the ceremony an answer names, once; a used, expired or unknown one is refused. */
  async function ceremony(id: string, purpose: 'add' | 'sign-in', auth?: Auth) {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await repo.takeCeremony(id, purpose) : undefined;
    if (!row || row.expires_at.getTime() <= deps.now()) throw expired();
    if (auth && (row.partner_id !== auth.partnerId || row.user_id !== auth.userId)) throw expired();
    return row;
  }

  return {
    async list(auth: Auth): Promise<Passkey[]> {
      return (await repo.listOwn(owner(auth))).map(toPasskey);
    },

    /** The code's check before it is sent (OTP action passkey.add): the name, and room for one more. */
    async checkAdd(auth: Auth, target: { name: string }) {
      const keys = await repo.credentialIds(owner(auth));
      if (keys.length >= PASSKEYS_PER_USER) throw tooMany();
      const name = target.name.trim();
      return { target: { name }, words: (t: MailTexts) => t.otpPurpose.passkeyAdd(name) };
    },

    /** The options for navigator.credentials.create: this user, the authenticators they have already excluded. */
    async addOptions(auth: Auth): Promise<PasskeyOptionsResponse> {
      const keys = await repo.credentialIds(owner(auth));
      if (keys.length >= PASSKEYS_PER_USER) throw tooMany();
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: auth.email,
        userDisplayName: auth.name,
        userID: userHandle(auth.userId),
        attestationType: 'none',
        excludeCredentials: keys.map((k) => ({ id: k.credential_id, transports: k.transports as never })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: PASSKEY_CEREMONY_SECONDS * 1000,
      });
      const id = await repo.beginCeremony({ purpose: 'add', owner: owner(auth), challenge: options.challenge, expiresAt: until(), now: now() });
      return { ceremony: id, options: options as unknown as Record<string, unknown> };
    },

    /** Adds the passkey the browser made, with the code e-mailed for it; the ceremony is used up either way. */
    async add(auth: Auth, input: AddPasskeyRequest, ctx: RequestCtx): Promise<Passkey> {
      const taken = await ceremony(input.ceremony, 'add', auth);
      const verified = await verifyRegistrationResponse({
        response: input.credential as RegistrationResponseJSON,
        expectedChallenge: taken.challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: true,
      }).catch(() => ({ verified: false as const }));
      if (!verified.verified) throw new AppError(400, 'PasskeyRefused', PASSKEY_MESSAGES.notAccepted);
      const info = verified.registrationInfo;
      const name = input.name.trim();
      const added = await deps.otp.authorise(auth, input.otp, { action: 'passkey.add', target: { name } }, async (trx) => {
        if ((await repo.countLocked(trx, owner(auth))) >= PASSKEYS_PER_USER) throw tooMany();
        const row = await repo.insert(trx, {
          ...owner(auth),
          credentialId: info.credential.id,
          publicKey: info.credential.publicKey,
          counter: info.credential.counter,
          transports: info.credential.transports ?? [],
          synced: info.credentialDeviceType === 'multiDevice',
          name,
          userAgent: ctx.userAgent ?? null,
        });
        if (!row) throw new AppError(409, 'PasskeyExists', PASSKEY_MESSAGES.alreadyAdded);
        await repo.audit({ partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, action: 'passkey.added', target: name, ...ctx }, trx);
        return row;
      });
      return toPasskey(added);
    },

    async rename(auth: Auth, id: string, name: string, ctx: RequestCtx) {
      const trimmed = name.trim();
      const renamed = await repo.transaction(async (trx) => {
        const row = await repo.rename(trx, owner(auth), id, trimmed);
        if (row)
          await repo.audit({ partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, action: 'passkey.renamed', target: trimmed, ...ctx }, trx);
        return row;
      });
      if (!renamed) throw notFound();
    },

    /** Removes one of the caller's passkeys, confirmed with the second factor (an authenticator or a recovery code). */
    async remove(auth: Auth, id: string, code: string, ctx: RequestCtx) {
      const mine = (await repo.listOwn(owner(auth))).some((p) => p.id === id);
      if (!mine) throw notFound();
      await deps.signIn.confirmSecondFactor(owner(auth), code, ctx);
      const removed = await repo.transaction(async (trx) => {
        const row = await repo.remove(trx, owner(auth), id);
        if (row)
          await repo.audit(
            { partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, action: 'passkey.removed', target: row.name, ...ctx },
            trx,
          );
        return row;
      });
      if (!removed) throw notFound();
    },

    /** The options for navigator.credentials.get: no user named (the passkey says who), verification required. */
    async signInOptions(): Promise<PasskeyOptionsResponse> {
      const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: PASSKEY_CEREMONY_SECONDS * 1000 });
      const id = await repo.beginCeremony({ purpose: 'sign-in', challenge: options.challenge, expiresAt: until(), now: now() });
      return { ceremony: id, options: options as unknown as Record<string, unknown> };
    },

    /**
     * Signs in with a passkey: the answer must sign this ceremony's challenge for this portal's origin with the stored
     * key of an enabled passkey, with user verification, and a use counter ahead of the last one (a counter that goes
     * back is a copied authenticator: the passkey is disabled and the owner's history says so).
     */
    async signIn(input: PasskeySignInRequest, ctx: RequestCtx): Promise<AuthResult> {
      const taken = await ceremony(input.ceremony, 'sign-in');
      const passkey = await repo.byCredential(input.credential.id);
      if (!passkey) throw unauthorized(PASSKEY_MESSAGES.unknown, 'PasskeyUnknown');
      const handle = input.credential.response.userHandle;
      if (handle !== undefined && userIdOfHandle(handle) !== passkey.user_id) throw refused();
      if (passkey.disabled_at) throw unauthorized(PASSKEY_MESSAGES.cloned, 'PasskeyCloned');
      // The verifier compares the counter before it checks the signature; an unsigned answer with a low counter must
      // not disable someone's passkey. So it is given 0 (no check), and the counter is compared here, once the
      // signature is known to be the passkey's: a fresh challenge signed with a counter not ahead of the last is a copy.
      const verified = await verifyAuthenticationResponse({
        response: input.credential as AuthenticationResponseJSON,
        expectedChallenge: taken.challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        credential: { id: passkey.credential_id, publicKey: new Uint8Array(passkey.public_key), counter: 0, transports: passkey.transports },
        requireUserVerification: true,
      }).catch(() => ({ verified: false as const }));
      if (!verified.verified) throw refused();
      const counter = verified.authenticationInfo.newCounter;
      const last = Number(passkey.counter);
      if ((counter > 0 || last > 0) && counter <= last) {
        await repo.transaction(async (trx) => {
          await repo.disable(trx, { partnerId: passkey.partner_id, id: passkey.id }, now());
          await repo.audit(
            {
              partnerId: passkey.partner_id,
              actorUserId: passkey.user_id,
              actor: 'system',
              action: 'passkey.disabled',
              target: passkey.name,
              details: { counter, last },
              ...ctx,
            },
            trx,
          );
        });
        throw unauthorized(PASSKEY_MESSAGES.cloned, 'PasskeyCloned');
      }
      const who = { partnerId: passkey.partner_id, userId: passkey.user_id };
      return deps.signIn.withPasskey(who, ctx, (trx) => repo.recordUse(trx, { partnerId: passkey.partner_id, id: passkey.id }, counter, now()));
    },
  };
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;
