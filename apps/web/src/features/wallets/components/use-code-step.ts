import { useState } from 'react';
import { useSendOtp } from '../../../lib/otp.ts';

/** The e-mailed code of a wallet change: send it (and again on request), keep what was typed, where it went. */
export function useCodeStep() {
  const send = useSendOtp();
  const [code, setCode] = useState('');
  return {
    code,
    setCode,
    sentTo: send.data?.sentTo,
    sending: send.isPending,
    sendError: send.isError ? send.error.message : undefined,
    /** sends a code; resolves true when it went */
    request: async () => {
      setCode('');
      try {
        await send.mutateAsync();
        return true;
      } catch {
        return false;
      }
    },
    reset: () => {
      setCode('');
      send.reset();
    },
  };
}
