import { useState, type FormEvent } from 'react';
import { parseIpAddress } from '@portal/contract/ip-address';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useSendOtp } from '../../../lib/otp.ts';
import { useAddIpAddress } from '../api/add-ip-address.ts';
import { useDeleteIpAddress } from '../api/delete-ip-address.ts';

const SIX_DIGITS = /^\d{6}$/;

/** Add an allowed address: the address (checked as the server checks it), then the e-mailed code. */
export function AddIpDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const send = useSendOtp();
  const add = useAddIpAddress();
  const [text, setText] = useState('');
  const [address, setAddress] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const close = () => {
    setText('');
    setAddress(undefined);
    setSentTo(undefined);
    setCode('');
    setError(undefined);
    send.reset();
    add.reset();
    onOpenChange(false);
  };

  const toCode = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseIpAddress(text);
    if (!parsed.ok) return setError(parsed.message);
    setError(undefined);
    send.mutate(undefined, {
      onSuccess: (sent) => {
        setSentTo(sent.sentTo);
        setAddress(parsed.value.canonical);
      },
    });
  };
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    if (!address) return;
    if (!SIX_DIGITS.test(code)) return setError('Invalid OTP');
    setError(undefined);
    add.mutate(
      { ipAddress: address, otp: code },
      {
        onSuccess: () => {
          toast.show(`${address} added to the allowed addresses`);
          close();
        },
        onError: (err) => setError(err.message),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())} title="Add an IP address" description={address ? `Confirm ${address} with the code we e-mailed you.` : 'API keys will work only from the addresses on the list.'} width={480}>
      {address && sentTo ? (
        <form onSubmit={confirm} noValidate className="space-y-5">
          <CodeStep
            sentTo={sentTo}
            code={code}
            onCodeChange={setCode}
            error={error}
            sendError={send.error?.message}
            resending={send.isPending}
            onResend={() => send.mutate(undefined, { onSuccess: (sent) => setSentTo(sent.sentTo) })}
          />
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Add address
            </Button>
          </div>
        </form>
      ) : (
        <form onSubmit={toCode} noValidate className="space-y-5">
          <TextField
            label="IP address or range"
            placeholder="203.0.113.7"
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={error}
            hint="An IPv4 or IPv6 address, or a range in CIDR notation such as 203.0.113.0/24. Check it: your servers' calls from other addresses will be refused."
            autoFocus
            spellCheck={false}
            autoCapitalize="off"
          />
          {send.isError && <Alert tone="danger">{send.error.message}</Alert>}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={send.isPending}>
              Send code
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** Remove an allowed address, with the e-mailed code. */
export function DeleteIpDialog({ ipAddress, isLast, onClose }: { ipAddress: string | undefined; isLast: boolean; onClose(): void }) {
  const send = useSendOtp();
  const remove = useDeleteIpAddress();
  const [sentTo, setSentTo] = useState<string>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const close = () => {
    setSentTo(undefined);
    setCode('');
    setError(undefined);
    send.reset();
    remove.reset();
    onClose();
  };
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    if (!ipAddress) return;
    if (!SIX_DIGITS.test(code)) return setError('Invalid OTP');
    setError(undefined);
    remove.mutate(
      { ipAddress, otp: code },
      {
        onSuccess: () => {
          toast.show(`${ipAddress} removed from the allowed addresses`);
          close();
        },
        onError: (err) => setError(err.message),
      },
    );
  };
  return (
    <Dialog open={ipAddress !== undefined} onOpenChange={(open) => !open && close()} title="Remove IP address?" width={480}>
      {sentTo ? (
        <form onSubmit={confirm} noValidate className="space-y-5">
          <CodeStep
            sentTo={sentTo}
            code={code}
            onCodeChange={setCode}
            error={error}
            sendError={send.error?.message}
            resending={send.isPending}
            onResend={() => send.mutate(undefined, { onSuccess: (sent) => setSentTo(sent.sentTo) })}
          />
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={remove.isPending}>
              Remove address
            </Button>
          </div>
        </form>
      ) : (
        <div className="space-y-5">
          <p className="text-sm">
            API-key calls from <code className="font-mono font-medium">{ipAddress}</code> will be refused once it is removed.
          </p>
          {isLast && <Alert tone="warning">This is the last address on the list: once it is removed, your API keys work from any address.</Alert>}
          {send.isError && <Alert tone="danger">{send.error.message}</Alert>}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button variant="danger" loading={send.isPending} onClick={() => send.mutate(undefined, { onSuccess: (sent) => setSentTo(sent.sentTo) })}>
              Send code
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
