import crypto from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

type CBORType = Parameters<typeof isoCBOR.encode>[0];

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: string | Uint8Array) => crypto.createHash('sha256').update(data).digest();

type CreationOptions = { challenge: string; rp: { id?: string }; user: { id: string } };
type RequestOptions = { challenge: string; rpId?: string };

/**
 * A software authenticator, as a browser's would answer WebAuthn: an ES256 key pair, a credential id, a use
 * counter, attestation "none". Its answers are the JSON forms the portal's browser code sends. For tests of the
 * server's checks: `origin`, `rpId`, `counter`, `userVerified` and `sign` can be set to what a wrong party would send.
 */
export function softAuthenticator(options: { origin: string; rpId: string }) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = crypto.randomBytes(16);
  const state = { origin: options.origin, rpId: options.rpId, counter: 0, userVerified: true, userHandle: '' };
  const cose = new Map<number, CBORType>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, isoBase64URL.toBuffer(jwk.x!)],
    [-3, isoBase64URL.toBuffer(jwk.y!)],
  ]);

  function authenticatorData(attested: boolean) {
    // user present, user verified (unless told otherwise), attested credential data on creation
    const flags = 0x01 | (state.userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(state.counter);
    const parts = [sha256(state.rpId), Buffer.from([flags]), count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      parts.push(Buffer.alloc(16), length, credentialId, Buffer.from(isoCBOR.encode(cose)));
    }
    return Buffer.concat(parts);
  }
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin: state.origin, crossOrigin: false }));

  return {
    state,
    id: b64url(credentialId),
    /** The answer to navigator.credentials.create with these options. */
    create(creation: CreationOptions) {
      state.userHandle = creation.user.id;
      const attestationObject = isoCBOR.encode(
        new Map<string, CBORType>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authenticatorData(true))],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', creation.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },
    /** The answer to navigator.credentials.get with these options; the counter moves on first, as an authenticator's does. */
    get(request: RequestOptions) {
      state.counter += 1;
      const data = authenticatorData(false);
      const client = clientData('webauthn.get', request.challenge);
      const signature = crypto.sign('sha256', Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: { clientDataJSON: b64url(client), authenticatorData: b64url(data), signature: b64url(signature), userHandle: state.userHandle },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },
  };
}
export type SoftAuthenticator = ReturnType<typeof softAuthenticator>;
