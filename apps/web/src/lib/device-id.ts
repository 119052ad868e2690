const KEY = 'deviceId';

/**
 * The device id sent as x-device-id (transaction-data §4). The earlier client asked a fingerprinting service for a
 * visitor id; we keep a random id per browser in localStorage, which identifies the device as well without a third
 * party. If storage is unavailable the id stays empty, as the spec says of a fingerprint failure.
 */
export function deviceId(): string {
  try {
    let id = localStorage.getItem(KEY);
    if (!id) {
      id = crypto.randomUUID();
      localStorage.setItem(KEY, id);
    }
    return id;
  } catch {
    return '';
  }
}
