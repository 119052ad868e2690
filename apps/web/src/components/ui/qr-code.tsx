import { useEffect, useState } from 'react';
import { commonMessages } from '../../lib/common-messages.ts';
import { useT } from '../../lib/i18n.ts';

/**
 * A QR code of `value` as an image, drawn locally (the secret never leaves the page). The encoder (qrcode, ~8 KB
 * compressed) loads when a code is first drawn, not with the screens that may show one.
 */
export function QrCode({ value, size = 184, label }: { value: string; size?: number; label: string }) {
  const t = useT(commonMessages);
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toDataURL(value, { margin: 1, width: size * 2, errorCorrectionLevel: 'M' }))
      .then(
        (url) => live && setSrc(url),
        () => live && setSrc(undefined),
      );
    return () => {
      live = false;
    };
  }, [value, size]);
  return (
    <div className="flex items-center justify-center rounded-lg border border-line bg-white p-2" style={{ width: size + 18, height: size + 18 }}>
      {src ? <img src={src} alt={label} width={size} height={size} /> : <span className="text-xs text-muted">{t('loading')}</span>}
    </div>
  );
}
